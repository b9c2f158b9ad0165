import type { AnswerCallback, LimiterStore } from '../../src/ratelimit/limiter-store';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';
import type { BucketParams } from '../../src/ratelimit/token-bucket';

// Buckets on a clock of their own that moves only when the test moves it: a budget of 10 a second
// holds exactly 10 however slowly a loaded machine runs the test, and refills when the test says so.
export class PausedClockStore implements LimiterStore {
  private readonly inner: MemoryLimiterStore;
  private nowMs = 1_000_000;

  constructor(max = 1000) {
    this.inner = new MemoryLimiterStore({ max });
  }

  advance(ms: number): void {
    this.nowMs += ms;
  }

  take(key: string, rule: BucketParams, cost: number, _nowMs: number, done: AnswerCallback): void {
    this.inner.take(key, rule, cost, this.nowMs, done);
  }

  spend(key: string, rule: BucketParams, cost: number, _nowMs: number, done: AnswerCallback): void {
    this.inner.spend(key, rule, cost, this.nowMs, done);
  }

  peek(key: string, rule: BucketParams, _nowMs: number, done: AnswerCallback): void {
    this.inner.peek(key, rule, this.nowMs, done);
  }

  get size(): number {
    return this.inner.size;
  }

  prune(): boolean {
    return this.inner.prune();
  }
}
