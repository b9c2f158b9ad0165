import type { AnswerCallback, LimiterStore } from './limiter-store';
import type { BucketParams } from './token-bucket';

// A shared store (Redis) with an answer for when it cannot be reached: `local` serves from this
// instance's own buckets until the shared store answers again, `closed` refuses (the caller answers 503).
// Never unlimited. While the shared store is down it is tried again at most once a second, so a dead
// Redis costs nothing per request; the way back is taken by the first request after that second.

export type FailureMode = 'local' | 'closed';
export type StoreState = 'shared' | 'local-fallback' | 'unavailable';

export class StoreUnavailableError extends Error {
  readonly code = 'rate-limit-store-unavailable';
  constructor(readonly retryAfterSeconds: number) {
    super('the shared rate-limit store cannot be reached');
  }
}

export interface FailoverEvents {
  outage(error: Error): void; // once per outage
  recovered(): void;
  fallback(): void; // each answer served without the shared store
}

export const RETRY_SHARED_MS = 1000;

// One outage state for every store (client, key, target) on the same connection.
export class SharedStoreHealth {
  private downSince: number | null = null;
  private lastTry = 0;

  constructor(
    readonly mode: FailureMode,
    private readonly events: FailoverEvents,
    private readonly now: () => number = Date.now,
  ) {}

  get state(): StoreState {
    if (this.downSince === null) return 'shared';
    return this.mode === 'local' ? 'local-fallback' : 'unavailable';
  }

  // Whether to ask the shared store now: always while it is up, once a second while it is down.
  shouldTry(): boolean {
    if (this.downSince === null) return true;
    if (this.now() - this.lastTry < RETRY_SHARED_MS) return false;
    this.lastTry = this.now();
    return true;
  }

  succeeded(): void {
    if (this.downSince === null) return;
    this.downSince = null;
    this.events.recovered();
  }

  failed(error: Error): void {
    this.lastTry = this.now();
    if (this.downSince !== null) return;
    this.downSince = this.now();
    this.events.outage(error);
  }
}

export class FailoverStore implements LimiterStore {
  constructor(
    private readonly shared: LimiterStore,
    private readonly local: LimiterStore,
    private readonly health: SharedStoreHealth,
    private readonly events: FailoverEvents,
  ) {}

  take(key: string, rule: BucketParams, cost: number, nowMs: number, done: AnswerCallback): void {
    this.decide((store, answered) => store.take(key, rule, cost, nowMs, answered), done);
  }

  spend(key: string, rule: BucketParams, cost: number, nowMs: number, done: AnswerCallback): void {
    this.decide((store, answered) => store.spend(key, rule, cost, nowMs, answered), done);
  }

  peek(key: string, rule: BucketParams, nowMs: number, done: AnswerCallback): void {
    this.decide((store, answered) => store.peek(key, rule, nowMs, answered), done);
  }

  // The shared store while it answers; on its failure, or while it is down, the local one or a refusal.
  // Each store answers once, so `done` is called once: with the shared answer, or with the fallback's.
  private decide(ask: (store: LimiterStore, answered: AnswerCallback) => void, done: AnswerCallback): void {
    if (!this.health.shouldTry()) return this.fromLocal(ask, done);
    ask(this.shared, (answer) => {
      if (answer instanceof Error) {
        this.health.failed(answer);
        return this.fromLocal(ask, done);
      }
      this.health.succeeded();
      done(answer);
    });
  }

  private fromLocal(ask: (store: LimiterStore, answered: AnswerCallback) => void, done: AnswerCallback): void {
    if (this.health.mode === 'closed') return done(new StoreUnavailableError(1));
    this.events.fallback();
    ask(this.local, done);
  }

  get size(): number {
    return this.local.size;
  }

  prune(): boolean {
    return this.local.prune();
  }
}
