import type { Maybe } from '../util/maybe';
import type { BucketDecision, BucketParams } from './token-bucket';

// A bucket's answer as a store gives it: the decision without the stored state.
export type BucketAnswer = Omit<BucketDecision, 'state'>;

// An answer given later by callback, or why there is none. Called once, and must not throw.
export type AnswerCallback = (answer: BucketAnswer | Error) => void;

// A promise of what a callback-answering call gives: the promise methods of stores built on callbacks.
export function answerLater(start: (done: AnswerCallback) => void): Promise<BucketAnswer> {
  return new Promise((resolve, reject) => start((answer) => (answer instanceof Error ? reject(answer) : resolve(answer))));
}

/**
 * Where token buckets live: client buckets, key buckets and per-target echo budgets all go through
 * this, so a store shared by many instances can stand where the in-process one stands today without
 * the request pipeline knowing. The arithmetic is token-bucket.ts whatever the store; `rule` travels
 * with each call so one store serves buckets of different sizes. `A` is what the store answers with:
 * a plain answer for a store in this process, a promise for one across the network.
 */
export interface LimiterStore<A extends Maybe<BucketAnswer> = Maybe<BucketAnswer>> {
  /** Takes `cost` tokens from `key`'s bucket if they are there; a refusal takes nothing. */
  take(key: string, rule: BucketParams, cost: number, nowMs: number): A;
  /**
   * Spends `cost` tokens whether they are there or not, for what was already done (a packet already
   * sent): the bucket may go into debt, down to -capacity at most, and `take` refuses until it is repaid.
   */
  spend(key: string, rule: BucketParams, cost: number, nowMs: number): A;
  /**
   * `take`, answered by calling `done` (once), for stores that answer later: the admission path of every
   * request, where a promise per layer cost more than the store's own work.
   */
  takeThen?(key: string, rule: BucketParams, cost: number, nowMs: number, done: AnswerCallback): void;
  /** What `take` would answer for `cost` 1, taking nothing. */
  peek(key: string, rule: BucketParams, nowMs: number): A;
  /** Buckets held now. */
  readonly size: number;
  /** Most buckets held at once, where the store has such a bound. */
  readonly max?: number;
  /** Drops buckets that are full again (forgetting a full bucket changes nothing); true if any were. */
  prune(): boolean;
}
