import Redis from 'ioredis';
import type { AnswerCallback, LimiterStore } from './limiter-store';
import { RedisBucketBatch, type BatchCall } from './redis-bucket-batch';
import { BUCKET_BATCH_SCRIPT } from './redis-bucket-script';
import type { BucketParams } from './token-bucket';

// Token buckets in Redis, shared by every instance pointed at it: the decisions of one loop turn go as
// one EVALSHA (redis-bucket-batch.ts; ioredis loads the script once), a short command timeout, no
// offline queue and no retries per request, so a Redis that is gone or slow is known at once (the
// failover store decides what to do then). Keys are `prefix` + the caller's key: client addresses,
// `key:<key id>` for API keys, target addresses; never an API key itself.

export const REDIS_TIMEOUT_MS = 50;

export interface RedisConnection {
  redis: Redis;
  // Every store on this connection batches into this one.
  buckets: RedisBucketBatch;
  // Resolves once connected (commands made before that fail at once: there is no offline queue).
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function connectRedis(url: string): RedisConnection {
  const redis = new Redis(url, {
    // The batch already makes one command of a loop turn's decisions; ioredis's own auto-pipelining
    // would hold that command back for one more loop turn.
    enableAutoPipelining: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_TIMEOUT_MS,
    connectTimeout: 1000,
    // Reconnect in the background forever, a second apart: the failover store serves meanwhile.
    retryStrategy: () => 1000,
    lazyConnect: false,
  });
  redis.on('error', () => {}); // surfaced per command to the failover store, which logs once per outage
  redis.defineCommand('ntBuckets', { lua: BUCKET_BATCH_SCRIPT });
  const call = (redis as unknown as { ntBuckets: BatchCall }).ntBuckets.bind(redis);
  return {
    redis,
    buckets: new RedisBucketBatch(call),
    ready: () => (redis.status === 'ready' ? Promise.resolve() : new Promise((resolve) => redis.once('ready', () => resolve()))),
    close: async () => void redis.disconnect(),
  };
}

export class RedisLimiterStore implements LimiterStore {
  constructor(
    private readonly batch: RedisBucketBatch,
    private readonly prefix: string,
    // Tests only: a clock reading handed to the script instead of Redis TIME.
    private readonly clock?: () => number,
  ) {}

  take(key: string, rule: BucketParams, cost: number, _nowMs: number, done: AnswerCallback): void {
    this.batch.decide(this.prefix + key, rule.capacity, rule.windowMs, cost, this.clockReading(), '', done);
  }

  spend(key: string, rule: BucketParams, cost: number, _nowMs: number, done: AnswerCallback): void {
    this.batch.decide(this.prefix + key, rule.capacity, rule.windowMs, cost, this.clockReading(), '1', done);
  }

  peek(key: string, rule: BucketParams, _nowMs: number, done: AnswerCallback): void {
    this.batch.decide(this.prefix + key, rule.capacity, rule.windowMs, 0, this.clockReading(), '', done);
  }

  private clockReading(): string {
    return this.clock ? String(this.clock()) : '';
  }

  // Kept in Redis with a TTL; this instance holds none of them.
  get size(): number {
    return 0;
  }

  prune(): boolean {
    return false;
  }
}
