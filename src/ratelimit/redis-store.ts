import Redis from 'ioredis';
import type { BucketAnswer, LimiterStore } from './limiter-store';
import { BUCKET_SCRIPT } from './redis-bucket-script';
import type { BucketParams } from './token-bucket';

// Token buckets in Redis, shared by every instance pointed at it: one EVALSHA per decision (ioredis
// loads the script once and pipelines calls made together), a short command timeout, no offline queue
// and no retries per request, so a Redis that is gone or slow is known at once (the failover store
// decides what to do then). Keys are `prefix` + the caller's key: client addresses, `key:<key id>` for
// API keys, target addresses; never an API key itself.

export const REDIS_TIMEOUT_MS = 50;

type Bucket = (key: string, capacity: number, windowMs: number, cost: number, now: string, spend: '1' | '') => Promise<[number, number, number, number]>;

export interface RedisConnection {
  redis: Redis;
  // Resolves once connected (commands made before that fail at once: there is no offline queue).
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function connectRedis(url: string): RedisConnection {
  const redis = new Redis(url, {
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_TIMEOUT_MS,
    connectTimeout: 1000,
    // Reconnect in the background forever, a second apart: the failover store serves meanwhile.
    retryStrategy: () => 1000,
    lazyConnect: false,
  });
  redis.on('error', () => {}); // surfaced per command to the failover store, which logs once per outage
  redis.defineCommand('ntBucket', { numberOfKeys: 1, lua: BUCKET_SCRIPT });
  return {
    redis,
    ready: () => (redis.status === 'ready' ? Promise.resolve() : new Promise((resolve) => redis.once('ready', () => resolve()))),
    close: async () => void redis.disconnect(),
  };
}

export class RedisLimiterStore implements LimiterStore<Promise<BucketAnswer>> {
  private readonly bucket: Bucket;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    // Tests only: a clock reading handed to the script instead of Redis TIME.
    private readonly clock?: () => number,
  ) {
    this.bucket = (redis as unknown as { ntBucket: Bucket }).ntBucket.bind(redis);
  }

  take(key: string, rule: BucketParams, cost: number, _nowMs: number): Promise<BucketAnswer> {
    return this.decide(key, rule, cost, '');
  }

  spend(key: string, rule: BucketParams, cost: number, _nowMs: number): Promise<BucketAnswer> {
    return this.decide(key, rule, cost, '1');
  }

  peek(key: string, rule: BucketParams, _nowMs: number): Promise<BucketAnswer> {
    return this.decide(key, rule, 0, '');
  }

  private async decide(key: string, rule: BucketParams, cost: number, spend: '1' | ''): Promise<BucketAnswer> {
    const [allowed, remaining, resetMs, retryAfterMs] = await this.bucket(this.prefix + key, rule.capacity, rule.windowMs, cost, this.clock ? String(this.clock()) : '', spend);
    return {
      allowed: allowed === 1,
      remaining,
      resetMs,
      resetSeconds: Math.ceil(resetMs / 1000),
      retryAfterMs,
      retryAfterSeconds: Math.ceil(retryAfterMs / 1000),
    };
  }

  // Kept in Redis with a TTL; this instance holds none of them.
  get size(): number {
    return 0;
  }

  prune(): boolean {
    return false;
  }
}
