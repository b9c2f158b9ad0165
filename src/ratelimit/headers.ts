import { createHmac, randomBytes } from 'node:crypto';
import type { RateDecision } from './client-limiter';

// Rate-limit response headers for a decision:
//   RateLimit-Policy: "default";q=30;w=60;pk=:...:   (draft-ietf-httpapi-ratelimit-headers-10)
//   RateLimit: "default";r=12;t=5;pk=:...:
//   X-RateLimit-Limit / -Remaining / -Reset           (the older de-facto fields)
//   Retry-After                                        (refusals only)

export type HeaderList = Array<[name: string, value: string]>;

/** Where headers go: an HTTP exchange, or a list (see rateLimitHeaders). */
export interface HeaderSink {
  header(name: string, value: string): unknown;
}

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
  const list: HeaderList = [];
  const sink = { header: (name: string, value: string) => list.push([name, value]) };
  createRateLimitHeaderWriter({ policy: options.policy, limit: decision.limit, windowMs: decision.windowMs })(decision, sink, options);
  return list;
}

/**
 * The same headers, with everything that depends only on the policy computed once: a server with one
 * policy builds three small strings per response instead of re-deriving the constant ones, and hands
 * them straight to `sink` (no list per response).
 */
export function createRateLimitHeaderWriter(policyOf: {
  policy?: string | undefined;
  limit: number;
  windowMs: number;
}): (decision: RateDecision, sink: HeaderSink, options?: Omit<RateLimitHeaderOptions, 'policy'>) => void {
  const policy = sfString(policyOf.policy ?? DEFAULT_POLICY_NAME);
  const policyValue = `${policy};q=${policyOf.limit};w=${Math.max(1, Math.ceil(policyOf.windowMs / 1000))}`;
  const limit = String(policyOf.limit);
  return (decision, sink, options) => {
    const pk = options?.partitionKey === undefined ? '' : `;pk=:${options.partitionKey}:`;
    const nowEpochMs = options?.nowEpochMs ?? Date.now();
    sink.header('RateLimit-Policy', policyValue + pk);
    sink.header('RateLimit', `${policy};r=${decision.remaining};t=${decision.resetSeconds}${pk}`);
    sink.header('X-RateLimit-Limit', limit);
    sink.header('X-RateLimit-Remaining', String(decision.remaining));
    sink.header('X-RateLimit-Reset', String(Math.ceil((nowEpochMs + decision.resetMs) / 1000)));
    if (!decision.allowed) sink.header('Retry-After', String(decision.retryAfterSeconds));
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
