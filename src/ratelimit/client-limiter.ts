import { monotonicMs } from '../util/clock';
import { then, type MappedMaybe, type Maybe } from '../util/maybe';
import type { BucketAnswer, LimiterStore } from './limiter-store';
import { MemoryLimiterStore } from './memory-limiter-store';
import type { RateLimitConfig } from './rate-limit-config';

export const DEFAULT_CLIENT_CACHE_MAX = 100_000;

export interface ClientLimiterOptions<A extends Maybe<BucketAnswer>> {
  rate: RateLimitConfig;
  /** Where the buckets live; by default in this process, at most `max` of them. */
  store?: LimiterStore<A>;
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
 * or an API key's under its plan's rate, given per call.
 */
export class ClientLimiter<A extends Maybe<BucketAnswer> = BucketAnswer> {
  readonly #rate: RateLimitConfig;
  readonly #now: () => number;
  readonly #store: LimiterStore<A>;

  constructor(options: ClientLimiterOptions<A>) {
    this.#rate = options.rate;
    this.#now = options.now ?? monotonicMs;
    this.#store = options.store ?? (new MemoryLimiterStore({ max: options.max ?? DEFAULT_CLIENT_CACHE_MAX, now: this.#now }) as LimiterStore<BucketAnswer> as LimiterStore<A>);
  }

  /** Takes one token. `nowMs` is a reading of the monotonic clock the caller already has, else it is read here. */
  check(key: string, nowMs?: number, rate: RateLimitConfig = this.#rate): MappedMaybe<A, RateDecision> {
    const answer: Maybe<BucketAnswer> = this.#store.take(key, rate, 1, nowMs ?? this.#now());
    // Every tool request passes here: the plain answer of a store in this process takes no closure.
    if (!(answer instanceof Promise)) return rateDecision(answer, rate) as MappedMaybe<A, RateDecision>;
    return answer.then((a) => rateDecision(a, rate)) as MappedMaybe<A, RateDecision>;
  }

  /** Whether the store answers takes by callback (`checkThen`), as a shared store does. */
  get answersByCallback(): boolean {
    return this.#store.takeThen !== undefined;
  }

  /** `check` by callback, for a store that `answersByCallback`: one callback per layer instead of a promise. */
  checkThen(key: string, nowMs: number, rate: RateLimitConfig, done: (decision: RateDecision | Error) => void): void {
    const takeThen = this.#store.takeThen as NonNullable<LimiterStore<A>['takeThen']>;
    takeThen.call(this.#store, key, rate, 1, nowMs, (a) => done(a instanceof Error ? a : rateDecision(a, rate)));
  }

  /** The decision `check` would report, without taking a token (for refusals that are not about the rate). */
  peek(key: string, nowMs?: number, rate: RateLimitConfig = this.#rate): MappedMaybe<A, RateDecision> {
    const answer = this.#store.peek(key, rate, nowMs ?? this.#now());
    return then(answer, (a) => rateDecision(a, rate)) as MappedMaybe<A, RateDecision>;
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
