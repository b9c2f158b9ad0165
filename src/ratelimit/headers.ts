import { createHmac, randomBytes } from 'node:crypto';
import type { RateDecision } from './client-limiter';

// Rate-limit response headers for a decision:
//   RateLimit-Policy: "default";q=30;w=60;pk=:...:   (draft-ietf-httpapi-ratelimit-headers-10)
//   RateLimit: "default";r=12;t=5;pk=:...:
//   X-RateLimit-Limit / -Remaining / -Reset           (the older de-facto fields)
//   Retry-After                                        (refusals only)

export type HeaderList = Array<[name: string, value: string]>;

export const DEFAULT_POLICY_NAME = 'default';

export interface RateLimitHeaderOptions {
  /** Policy name shared by both IETF fields; a short token such as `default`. */
  policy?: string;
  /** Opaque partition key (from `createPartitionKeyer`), never a raw address; omitted when absent. */
  partitionKey?: string;
  /** Wall clock for X-RateLimit-Reset; defaults to Date.now(). */
  nowEpochMs?: number;
}

function sfString(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * The headers to send with a tool response or a 429 for `decision`.
 * `t` and `X-RateLimit-Reset` describe when the bucket is full again; X-RateLimit-Reset is in epoch
 * seconds as GitHub and most older clients read it. `w` is the refill window in whole seconds,
 * rounded up (the field cannot carry fractions). `Retry-After` is whole seconds, rounded up, so a
 * client that waits exactly that long is let in.
 */
export function rateLimitHeaders(decision: RateDecision, options: RateLimitHeaderOptions = {}): HeaderList {
  return createRateLimitHeaderWriter({ policy: options.policy, limit: decision.limit, windowMs: decision.windowMs })(decision, options);
}

/**
 * The same headers, with everything that depends only on the policy computed once: a server with one
 * policy builds three small strings per response instead of re-deriving the constant ones.
 */
export function createRateLimitHeaderWriter(policyOf: {
  policy?: string | undefined;
  limit: number;
  windowMs: number;
}): (decision: RateDecision, options?: Omit<RateLimitHeaderOptions, 'policy'>) => HeaderList {
  const policy = sfString(policyOf.policy ?? DEFAULT_POLICY_NAME);
  const policyValue = `${policy};q=${policyOf.limit};w=${Math.max(1, Math.ceil(policyOf.windowMs / 1000))}`;
  const limit = String(policyOf.limit);
  return (decision, options = {}) => {
    const pk = options.partitionKey === undefined ? '' : `;pk=:${options.partitionKey}:`;
    const nowEpochMs = options.nowEpochMs ?? Date.now();
    const headers: HeaderList = [
      ['RateLimit-Policy', policyValue + pk],
      ['RateLimit', `${policy};r=${decision.remaining};t=${decision.resetSeconds}${pk}`],
      ['X-RateLimit-Limit', limit],
      ['X-RateLimit-Remaining', String(decision.remaining)],
      ['X-RateLimit-Reset', String(Math.ceil((nowEpochMs + decision.resetMs) / 1000))],
    ];
    if (!decision.allowed) headers.push(['Retry-After', String(decision.retryAfterSeconds)]);
    return headers;
  };
}

/** Retry-After for refusals that are not about the bucket (503 overloaded, target budget). */
export function retryAfterHeader(seconds: number): HeaderList {
  return [['Retry-After', String(Math.max(1, Math.ceil(seconds)))]];
}

/**
 * Turns a client key into an opaque partition key (base64 of a truncated HMAC-SHA256 under a
 * per-process secret). Clients sharing a bucket see the same key, but nobody can test guesses of an
 * address against it: a plain hash of an IPv4 address would be reversed by trying all 2^32.
 */
export function createPartitionKeyer(secret: Uint8Array = randomBytes(32)): (clientKey: string) => string {
  return (clientKey) => createHmac('sha256', secret).update(clientKey).digest().subarray(0, 12).toString('base64');
}
