import type { Answer } from '../util/answer';
import type { BucketDecision, BucketParams } from './token-bucket';

// A bucket's answer as a store gives it: the decision without the stored state.
export type BucketAnswer = Omit<BucketDecision, 'state'>;

// How a store answers (util/answer.ts): once, at once for a store in this process, later for one across
// the network; an Error when it cannot decide.
export type AnswerCallback = Answer<BucketAnswer>;

/**
 * Where token buckets live: client buckets, key buckets and per-target echo budgets all go through
 * this, so a store shared by many instances can stand where the in-process one stands today without
 * the request pipeline knowing. The arithmetic is token-bucket.ts whatever the store; `rule` travels
 * with each call so one store serves buckets of different sizes. Every decision is answered through
 * `done`, exactly once, after the store's state is written.
 */
export interface LimiterStore {
  /** Takes `cost` tokens from `key`'s bucket if they are there; a refusal takes nothing. */
  take(key: string, rule: BucketParams, cost: number, nowMs: number, done: AnswerCallback): void;
  /**
   * Spends `cost` tokens whether they are there or not, for what was already done (a packet already
   * sent): the bucket may go into debt, down to -capacity at most, and `take` refuses until it is repaid.
   */
  spend(key: string, rule: BucketParams, cost: number, nowMs: number, done: AnswerCallback): void;
  /** What `take` would answer for `cost` 1, taking nothing. */
  peek(key: string, rule: BucketParams, nowMs: number, done: AnswerCallback): void;
  /** Buckets held now. */
  readonly size: number;
  /** Most buckets held at once, where the store has such a bound. */
  readonly max?: number;
  /** Drops buckets that are full again (forgetting a full bucket changes nothing); true if any were. */
  prune(): boolean;
}
