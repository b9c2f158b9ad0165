import type { Address } from '../net/address';
import { monotonicMs } from '../util/clock';
import type { Answer } from '../util/answer';
import type { LimiterStore } from './limiter-store';
import { MemoryLimiterStore } from './memory-limiter-store';
import type { BucketParams } from './token-bucket';

// How many echo requests the whole server may send to one address per second (or traces per minute),
// across all clients, so that many clients together cannot turn the service into a flood source
// against one host.
//
// Each address has a token bucket of `limit` tokens that refills in one window. A ping
// reserves all its echoes up front, before the first is sent, so a ping is either sent whole or
// refused whole (never cut off half way). Reserving up front is conservative: the echoes of one ping
// are spread over count * interval, so the real send rate to an address is at most the budget on
// average and at most twice it within any single second.

export const DEFAULT_TARGET_CACHE_MAX = 10_000;

export interface TargetBudgetOptions {
  /** What one target address may receive per window: echo requests per second (Config.targetEchoesPerSecond), or traces per minute. */
  limit: number;
  /** The refill window, 1000 by default; traces use a minute. */
  windowMs?: number;
  /** Keeps budgets of another kind (traces) apart from echo budgets in one shared store. */
  keyPrefix?: string;
  /** Where the budgets live; by default in this process, at most `max` addresses. */
  store?: LimiterStore;
  max?: number;
  /** Monotonic clock in integer ms; defaults to Math.floor(performance.now()). */
  now?: () => number;
}

export type TargetReservation =
  | { granted: true; remaining: number }
  | { granted: false; reason: 'budget-spent'; retryAfterSeconds: number; limit: number }
  // More than the budget allows in one window: waiting does not help, ask for fewer.
  | { granted: false; reason: 'over-budget'; limit: number };

export class TargetBudget {
  readonly #rule: BucketParams;
  readonly #now: () => number;
  readonly #store: LimiterStore;
  readonly #prefix: string;

  constructor(options: TargetBudgetOptions) {
    this.#rule = { capacity: options.limit, windowMs: options.windowMs ?? 1000 };
    this.#prefix = options.keyPrefix ?? '';
    this.#now = options.now ?? monotonicMs;
    this.#store = options.store ?? new MemoryLimiterStore({ max: options.max ?? DEFAULT_TARGET_CACHE_MAX, now: this.#now });
  }

  /** What one address may receive per window. */
  get limit(): number {
    return this.#rule.capacity;
  }

  /**
   * Reserves `units` (echo requests, traces) to `address`, answering through `done`: at once for a store
   * in this process. The key is the value's canonical text, so spellings of one address share one budget;
   * `scope` parts it further (a TCP port: each port of an address has a budget of its own).
   */
  reserve(address: Address, units: number, done: Answer<TargetReservation>, scope?: string): void {
    if (!Number.isInteger(units) || units < 1) throw new RangeError(`units must be a positive integer, got ${units}`);
    const limit = this.#rule.capacity;
    if (units > limit) return done({ granted: false, reason: 'over-budget', limit });
    const key = this.#prefix + address.text + (scope === undefined ? '' : `#${scope}`);
    this.#store.take(key, this.#rule, units, this.#now(), (a) => {
      if (a instanceof Error) return done(a);
      if (!a.allowed) return done({ granted: false, reason: 'budget-spent', retryAfterSeconds: a.retryAfterSeconds, limit });
      done({ granted: true, remaining: a.remaining });
    });
  }

  /** Target addresses currently remembered. */
  get size(): number {
    return this.#store.size;
  }
}
