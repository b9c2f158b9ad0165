import { LRUCache } from 'lru-cache';
import type { RateLimitConfig } from '../config/types';
import { monotonicMs } from '../util/clock';
import { take, type BucketDecision, type BucketState } from './token-bucket';

export const DEFAULT_CLIENT_CACHE_MAX = 100_000;

export interface ClientLimiterOptions {
  rate: RateLimitConfig;
  /** Most clients remembered at once (Config.rateLimitCacheMax); memory stays bounded by it. */
  max?: number;
  /** Monotonic clock in integer ms; defaults to Math.floor(performance.now()). */
  now?: () => number;
}

/** Everything the HTTP layer needs to answer, and to build the rate-limit headers. */
export interface RateDecision extends Omit<BucketDecision, 'state'> {
  limit: number; // bucket size (RateLimit-Policy q, X-RateLimit-Limit)
  windowMs: number; // refill window (RateLimit-Policy w)
}

/**
 * Per-client token buckets in an LRU cache of fixed size.
 *
 * Forgetting a client is the same as giving it a full bucket. Each entry lives only as long as its
 * bucket needs to fill up again (its TTL is the time to full), so expiry changes nothing: a bucket
 * read after its TTL would have been full anyway. The only lossy case is eviction under pressure:
 * when more than `max` clients are active within one window, the least recently seen ones are
 * forgotten and start again from a full bucket. That is the price of bounded memory under an
 * address flood; size `max` above the number of clients you expect within one window.
 */
export class ClientLimiter {
  readonly #rate: RateLimitConfig;
  readonly #now: () => number;
  readonly #buckets: LRUCache<string, BucketState>;
  // The instant of the operation in progress. lru-cache reads its clock several times per get and set;
  // each read of the system clock costs ~50 ns here, so the cache is handed this one reading instead.
  #at = 0;

  constructor(options: ClientLimiterOptions) {
    this.#rate = options.rate;
    this.#now = options.now ?? monotonicMs;
    this.#buckets = new LRUCache<string, BucketState>({
      max: options.max ?? DEFAULT_CLIENT_CACHE_MAX,
      ttl: options.rate.windowMs,
      // Same clock as the buckets, read once per operation: expiry and refill must agree.
      perf: { now: () => this.#at },
      ttlResolution: 0,
      // A stale get still reads as "no bucket" (a full one); it is just not deleted there. Deleting the
      // cache's last entry makes lru-cache clear its key and value arrays, O(max) each time: with one
      // busy client whose bucket refills between requests, that was ~7% of a dns request's CPU.
      // set() overwrites the stale entry in place; prune() still drops stale ones in the background.
      noDeleteOnStaleGet: true,
    });
  }

  /**
   * Takes one token from `key`'s bucket (a client key, see http/client-key). `nowMs` is a reading of the
   * same monotonic clock the caller already has (a request's arrival), else the clock is read here.
   */
  check(key: string, nowMs?: number): RateDecision {
    const now = this.#tick(nowMs);
    const taken = take(this.#rate, this.#buckets.get(key), now);
    this.#buckets.set(key, taken.state, { ttl: Math.max(1, taken.resetMs) });
    return rateDecision(taken, this.#rate);
  }

  /** The decision `check` would report, without taking a token (for refusals that are not about the rate). */
  peek(key: string, nowMs?: number): RateDecision {
    const now = this.#tick(nowMs);
    return rateDecision(take(this.#rate, this.#buckets.peek(key), now, 0), this.#rate);
  }

  // A clock that went backwards (a caller's reading older than the last one) is held at the last one.
  #tick(nowMs: number | undefined): number {
    const now = nowMs === undefined ? this.#now() : Math.floor(nowMs);
    this.#at = Math.max(this.#at, now);
    return this.#at;
  }

  /** Clients currently remembered. */
  get size(): number {
    return this.#buckets.size;
  }

  get max(): number {
    return this.#buckets.max;
  }

  /** Drops entries whose buckets are full again (for a periodic housekeeping timer); true if any were. */
  prune(): boolean {
    this.#tick(undefined);
    return this.#buckets.purgeStale();
  }
}

// Field by field rather than rest and spread: this runs for every tool request, and copying by
// spread was a measurable share of a refused request's CPU.
function rateDecision(taken: BucketDecision, rate: RateLimitConfig): RateDecision {
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
