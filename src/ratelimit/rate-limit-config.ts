import { fail, ok, type Result } from '../util/result';

export interface RateLimitConfig {
  capacity: number; // bucket size
  windowMs: number; // time to refill the whole bucket
}

// NETTOOLS_RATE_LIMIT: "<bucket size>/<refill window>", e.g. "30/60s" = 30 requests in a burst, and
// the whole bucket refills in 60 s. A window without a number ("30/s") means one unit.

export type RateLimitErrorCode = 'rate-limit-malformed' | 'rate-limit-zero' | 'rate-limit-too-large';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;

// Bounds that keep the bucket arithmetic (capacity * windowMs) far inside safe integers.
export const MAX_CAPACITY = 1_000_000;
export const MAX_WINDOW_MS = 24 * 3_600_000;

const PATTERN = /^(\d{1,10})\s*\/\s*(\d{0,10})\s*(ms|s|m|h)$/;

export function parseRateLimit(text: string): Result<RateLimitConfig, RateLimitErrorCode> {
  const match = PATTERN.exec(text.trim());
  if (match === null) {
    return fail('rate-limit-malformed', `rate limit "${text}" is not <count>/<window> with a unit ms, s, m or h (e.g. 30/60s)`);
  }
  const capacity = Number(match[1]);
  const amount = match[2] === '' ? 1 : Number(match[2]);
  const windowMs = amount * UNIT_MS[match[3] as keyof typeof UNIT_MS];
  if (capacity === 0 || windowMs === 0) return fail('rate-limit-zero', `rate limit "${text}" must have a non-zero count and window`);
  if (capacity > MAX_CAPACITY) return fail('rate-limit-too-large', `rate limit "${text}": count must be at most ${MAX_CAPACITY}`);
  if (windowMs > MAX_WINDOW_MS) return fail('rate-limit-too-large', `rate limit "${text}": window must be at most 24h`);
  return ok({ capacity, windowMs });
}

