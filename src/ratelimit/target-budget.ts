import { LRUCache } from 'lru-cache';
import { formatIp, parseIp, unmapIPv4 } from '../net/ip';
import { monotonicMs } from '../util/clock';
import { take, type BucketParams, type BucketState } from './token-bucket';

// How many echo requests the whole server may send to one address per second, across all clients,
// so that many clients together cannot turn the service into a flood source against one host.
//
// Each address has a token bucket of `echoesPerSecond` tokens that refills in one second. A ping
// reserves all its echoes up front, before the first is sent, so a ping is either sent whole or
// refused whole (never cut off half way). Reserving up front is conservative: the echoes of one ping
// are spread over count * interval, so the real send rate to an address is at most the budget on
// average and at most twice it within any single second.

export const DEFAULT_TARGET_CACHE_MAX = 10_000;

export interface TargetBudgetOptions {
  /** Echo requests per second per target address (Config.targetEchoesPerSecond). */
  echoesPerSecond: number;
  /** Most target addresses remembered at once. */
  max?: number;
  /** Monotonic clock in integer ms; defaults to Math.floor(performance.now()). */
  now?: () => number;
}

export type Reservation =
  | { granted: true; remaining: number }
  | { granted: false; reason: 'budget-spent'; retryAfterSeconds: number; limit: number }
  // More echoes than the budget allows in one second: waiting does not help, ask for fewer.
  | { granted: false; reason: 'over-budget'; limit: number };

/**
 * Per-target echo budget. Forgetting an address (TTL or eviction) gives it a full bucket, which is
 * what it would have after one idle second anyway; eviction of a still-active address needs more
 * than `max` distinct targets within one second.
 */
export class TargetBudget {
  readonly #params: BucketParams;
  readonly #now: () => number;
  readonly #buckets: LRUCache<string, BucketState>;

  constructor(options: TargetBudgetOptions) {
    this.#params = { capacity: options.echoesPerSecond, windowMs: 1000 };
    this.#now = options.now ?? monotonicMs;
    this.#buckets = new LRUCache<string, BucketState>({
      max: options.max ?? DEFAULT_TARGET_CACHE_MAX,
      ttl: 1000,
      perf: { now: this.#now },
      ttlResolution: 0,
      // As in the client limiter: a stale read still means a full bucket, but deleting the cache's last
      // entry on that read makes lru-cache clear its arrays (O(max)) for one busy target's every ping.
      noDeleteOnStaleGet: true,
    });
  }

  /**
   * Reserves `echoes` echo requests to `address` (an IP literal; spellings of one address share one
   * budget). Time comes from the injected clock only, which the cache's expiry reads as well.
   */
  reserve(address: string, echoes: number): Reservation {
    if (!Number.isInteger(echoes) || echoes < 1) throw new RangeError(`echoes must be a positive integer, got ${echoes}`);
    const limit = this.#params.capacity;
    if (echoes > limit) return { granted: false, reason: 'over-budget', limit };
    const parsed = parseIp(address);
    const key = parsed === null ? address : formatIp(unmapIPv4(parsed));
    const { state, ...decision } = take(this.#params, this.#buckets.get(key), this.#now(), echoes);
    if (!decision.allowed) {
      return { granted: false, reason: 'budget-spent', retryAfterSeconds: decision.retryAfterSeconds, limit };
    }
    this.#buckets.set(key, state, { ttl: Math.max(1, decision.resetMs) });
    return { granted: true, remaining: decision.remaining };
  }

  /** Target addresses currently remembered. */
  get size(): number {
    return this.#buckets.size;
  }

  /** Drops entries whose buckets are full again (for a periodic housekeeping timer); true if any were. */
  prune(): boolean {
    return this.#buckets.purgeStale();
  }
}
