import { monotonicMs } from '../util/clock';
import type { Answer } from '../util/answer';
import type { BucketAnswer, LimiterStore } from './limiter-store';
import { MemoryLimiterStore } from './memory-limiter-store';
import type { RateLimitConfig } from './rate-limit-config';

export const DEFAULT_CLIENT_CACHE_MAX = 100_000;

export interface ClientLimiterOptions {
  /** Where the buckets live; by default in this process, at most `max` of them. */
  store?: LimiterStore;
  /** Most clients remembered at once by the default store (Config.rateLimitCacheMax). */
  max?: number;
  /** Monotonic clock in integer ms; defaults to Math.floor(performance.now()). */
  now?: () => number;
}

/** Everything the HTTP layer needs to answer, and to build the rate-limit headers. */
export interface RateDecision extends BucketAnswer {
  limit: number; // bucket size (RateLimit-Policy q, X-RateLimit-Limit)
  windowMs: number; // refill window (RateLimit-Policy w)
}

/**
 * One token per request from a bucket: a client's (keyed by http/client-key) under the anonymous rate,
 * or an API key's under its plan's rate; the rate is given per call.
 */
export class ClientLimiter {
  readonly #now: () => number;
  readonly #store: LimiterStore;

  constructor(options: ClientLimiterOptions) {
    this.#now = options.now ?? monotonicMs;
    this.#store = options.store ?? new MemoryLimiterStore({ max: options.max ?? DEFAULT_CLIENT_CACHE_MAX, now: this.#now });
  }

  /**
   * Takes one token, answering through `done` (at once for a store in this process). `nowMs` is a
   * reading of the monotonic clock the caller already has, else it is read here.
   */
  check(key: string, nowMs: number | undefined, rate: RateLimitConfig, done: Answer<RateDecision>): void {
    this.#store.take(key, rate, 1, nowMs ?? this.#now(), (a) => done(a instanceof Error ? a : rateDecision(a, rate)));
  }

  /** The decision `check` would report, without taking a token (for refusals that are not about the rate). */
  peek(key: string, nowMs: number | undefined, rate: RateLimitConfig, done: Answer<RateDecision>): void {
    this.#store.peek(key, rate, nowMs ?? this.#now(), (a) => done(a instanceof Error ? a : rateDecision(a, rate)));
  }

  /** Clients currently remembered. */
  get size(): number {
    return this.#store.size;
  }

  get max(): number | undefined {
    return this.#store.max;
  }

  /** Drops clients whose buckets are full again (for a periodic housekeeping timer); true if any were. */
  prune(): boolean {
    return this.#store.prune();
  }
}

// Field by field: this runs for every tool request, and a rest-and-spread copy cost visibly more.
function rateDecision(taken: BucketAnswer, rate: RateLimitConfig): RateDecision {
  return {
    allowed: taken.allowed,
    remaining: taken.remaining,
    resetMs: taken.resetMs,
    resetSeconds: taken.resetSeconds,
    retryAfterMs: taken.retryAfterMs,
    retryAfterSeconds: taken.retryAfterSeconds,
    limit: rate.capacity,
    windowMs: rate.windowMs,
  };
}
