import { LRUCache } from 'lru-cache';
import { monotonicMs } from '../util/clock';
import type { AnswerCallback, BucketAnswer, LimiterStore } from './limiter-store';
import { spend, take, type BucketDecision, type BucketParams, type BucketState } from './token-bucket';

export interface MemoryLimiterStoreOptions {
  /** Most buckets remembered at once; memory stays bounded by it. */
  max: number;
  /** Monotonic clock in integer ms, for housekeeping; requests bring their own reading. */
  now?: () => number;
}

/**
 * Token buckets in an LRU cache of fixed size, in this process.
 *
 * Forgetting a bucket is the same as handing out a full one. Each entry lives only as long as its
 * bucket needs to fill up again (its TTL is the time to full), so expiry changes nothing: a bucket
 * read after its TTL would have been full anyway. The only lossy case is eviction under pressure:
 * when more than `max` keys are active within one window, the least recently seen ones are forgotten
 * and start again from a full bucket. That is the price of bounded memory under an address flood.
 */
export class MemoryLimiterStore implements LimiterStore {
  readonly #now: () => number;
  readonly #buckets: LRUCache<string, BucketState>;
  // The instant of the operation in progress: the cache reads its clock several times per get and
  // set, and must see the same instant the bucket arithmetic used, or expiry and refill disagree.
  #at = 0;

  constructor(options: MemoryLimiterStoreOptions) {
    this.#now = options.now ?? monotonicMs;
    this.#buckets = new LRUCache<string, BucketState>({
      max: options.max,
      ttl: 1, // every entry is set with its own TTL (time to full)
      perf: { now: () => this.#at },
      ttlResolution: 0,
      // A stale get still reads as "no bucket" (a full one); it is just not deleted there: deleting the
      // cache's last entry makes lru-cache clear its key and value arrays, O(max) each time, which one
      // busy key whose bucket refills between requests would pay on every request. set() overwrites
      // the stale entry in place, and prune() still drops stale ones in the background.
      noDeleteOnStaleGet: true,
    });
  }

  // Each answer is given after the bucket is stored, and outside any try: a callback that throws leaves
  // the bucket whole and is not called again.
  take(key: string, rule: BucketParams, cost: number, nowMs: number, done: AnswerCallback): void {
    // Refusals are stored too: their state is the same level refilled to now, and storing it keeps a
    // key that is being refused recent, so a flood of other keys cannot evict it into a full bucket.
    done(this.#store(key, take(rule, this.#buckets.get(key), this.#tick(nowMs), cost)));
  }

  spend(key: string, rule: BucketParams, cost: number, nowMs: number, done: AnswerCallback): void {
    done(this.#store(key, spend(rule, this.#buckets.get(key), this.#tick(nowMs), cost)));
  }

  peek(key: string, rule: BucketParams, nowMs: number, done: AnswerCallback): void {
    done(take(rule, this.#buckets.peek(key), this.#tick(nowMs), 0));
  }

  #store(key: string, decided: BucketDecision): BucketAnswer {
    this.#buckets.set(key, decided.state, { ttl: Math.max(1, decided.resetMs) });
    return decided;
  }

  get size(): number {
    return this.#buckets.size;
  }

  get max(): number {
    return this.#buckets.max;
  }

  prune(): boolean {
    this.#tick(this.#now());
    return this.#buckets.purgeStale();
  }

  // A reading older than the last one (a clock that went backwards) is held at the last one.
  #tick(nowMs: number): number {
    this.#at = Math.max(this.#at, Math.floor(nowMs));
    return this.#at;
  }
}
