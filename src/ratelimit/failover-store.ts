import type { AnswerCallback, BucketAnswer, LimiterStore } from './limiter-store';
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

export class FailoverStore implements LimiterStore<Promise<BucketAnswer>> {
  constructor(
    private readonly shared: LimiterStore,
    private readonly local: LimiterStore,
    private readonly health: SharedStoreHealth,
    private readonly events: FailoverEvents,
  ) {}

  take(key: string, rule: BucketParams, cost: number, nowMs: number): Promise<BucketAnswer> {
    return new Promise((resolve, reject) => this.takeThen(key, rule, cost, nowMs, (a) => (a instanceof Error ? reject(a) : resolve(a))));
  }

  // `decide` for takes, by callback from end to end: the admission path of every request.
  takeThen(key: string, rule: BucketParams, cost: number, nowMs: number, done: AnswerCallback): void {
    const fromLocal = (): void => {
      if (this.health.mode === 'closed') return done(new StoreUnavailableError(1));
      this.events.fallback();
      askThen(this.local, key, rule, cost, nowMs, done);
    };
    if (!this.health.shouldTry()) return fromLocal();
    askThen(this.shared, key, rule, cost, nowMs, (answer) => {
      if (answer instanceof Error) {
        this.health.failed(answer);
        return fromLocal();
      }
      this.health.succeeded();
      done(answer);
    });
  }

  spend(key: string, rule: BucketParams, cost: number, nowMs: number): Promise<BucketAnswer> {
    return this.decide((s) => s.spend(key, rule, cost, nowMs));
  }

  peek(key: string, rule: BucketParams, nowMs: number): Promise<BucketAnswer> {
    return this.decide((s) => s.peek(key, rule, nowMs));
  }

  private async decide(ask: (store: LimiterStore) => BucketAnswer | Promise<BucketAnswer>): Promise<BucketAnswer> {
    if (this.health.shouldTry()) {
      try {
        const answer = await ask(this.shared);
        this.health.succeeded();
        return answer;
      } catch (err) {
        this.health.failed(err as Error);
      }
    }
    if (this.health.mode === 'closed') throw new StoreUnavailableError(1);
    this.events.fallback();
    return ask(this.local);
  }

  get size(): number {
    return this.local.size;
  }

  prune(): boolean {
    return this.local.prune();
  }
}

// A store's take by callback, whether or not it has its own takeThen.
function askThen(store: LimiterStore, key: string, rule: BucketParams, cost: number, nowMs: number, done: AnswerCallback): void {
  if (store.takeThen !== undefined) return store.takeThen(key, rule, cost, nowMs, done);
  let answer: BucketAnswer | Promise<BucketAnswer>;
  try {
    answer = store.take(key, rule, cost, nowMs);
  } catch (err) {
    return done(asError(err));
  }
  if (answer instanceof Promise) answer.then(done, (err: unknown) => done(asError(err)));
  else done(answer);
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
