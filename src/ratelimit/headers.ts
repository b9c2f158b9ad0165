import type { RateDecision } from './client-limiter';

// Rate-limit response headers for a decision:
//   RateLimit-Policy: "default";q=30;w=60      (draft-ietf-httpapi-ratelimit-headers-10)
//   RateLimit: "default";r=12;t=5
//   X-RateLimit-Limit / -Remaining / -Reset    (the older de-facto fields)
//   Retry-After                                 (refusals only)

/** Where headers go: an HTTP exchange, or a list in a test. `text` is whole "\r\nName: value" lines. */
export interface HeaderSink {
  lines(text: string): unknown;
}

export const DEFAULT_POLICY_NAME = 'default';

function sfString(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * Writes the headers for a decision under one policy, as one block of lines whose constant parts are
 * built once. `t` and `X-RateLimit-Reset` describe when the bucket is full again; X-RateLimit-Reset is in
 * epoch seconds as GitHub and most older clients read it. `w` is the refill window in whole seconds,
 * rounded up (the field cannot carry fractions). `Retry-After` is whole seconds, rounded up, so a
 * client that waits exactly that long is let in.
 */
export function createRateLimitHeaderWriter(policyOf: {
  policy?: string | undefined;
  limit: number;
  windowMs: number;
}): (decision: RateDecision, sink: HeaderSink, nowEpochMs?: number) => void {
  const policy = sfString(policyOf.policy ?? DEFAULT_POLICY_NAME);
  const policyValue = `${policy};q=${policyOf.limit};w=${Math.max(1, Math.ceil(policyOf.windowMs / 1000))}`;
  const opening = `\r\nRateLimit-Policy: ${policyValue}\r\nRateLimit: ${policy};r=`;
  const limitLine = `\r\nX-RateLimit-Limit: ${policyOf.limit}\r\nX-RateLimit-Remaining: `;
  return (decision, sink, nowEpochMs = Date.now()) => {
    const reset = Math.ceil((nowEpochMs + decision.resetMs) / 1000);
    const retry = decision.allowed ? '' : `\r\nRetry-After: ${decision.retryAfterSeconds}`;
    sink.lines(`${opening}${decision.remaining};t=${decision.resetSeconds}${limitLine}${decision.remaining}\r\nX-RateLimit-Reset: ${reset}${retry}`);
  };
}

/** Retry-After for refusals that are not about the bucket: whole seconds, rounded up, at least one. */
export function retryAfterValue(seconds: number): string {
  return String(Math.max(1, Math.ceil(seconds)));
}
