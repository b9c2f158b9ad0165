import type { Config } from './config/types';
import type { Logger } from './log';
import type { HttpMetrics } from './observability/metrics';
import { FailoverStore, SharedStoreHealth, type StoreState } from './ratelimit/failover-store';
import type { LimiterStore } from './ratelimit/limiter-store';
import { MemoryLimiterStore } from './ratelimit/memory-limiter-store';
import { DEFAULT_TARGET_CACHE_MAX } from './ratelimit/target-budget';

// NETTOOLS_REDIS_URL: address and key buckets and per-target echo budgets in Redis, shared by every
// instance pointed at it, each with this instance's own buckets to fall back on (or none, when closed).
export interface SharedBudgets {
  clients: LimiterStore;
  targets: LimiterStore;
  state(): StoreState;
  // Resolves once Redis answers, or after `withinMs` whatever it does: the server starts either way.
  ready(withinMs: number): Promise<void>;
  close(): Promise<void>;
}

export function openSharedBudgets(config: Config, log: Logger, metrics: HttpMetrics, locals: { clients?: LimiterStore; targets?: LimiterStore }): SharedBudgets {
  // Loaded only here: ioredis adds ~18 MB to the resident set of a server that never uses it.
  const { connectRedis, RedisLimiterStore } = require('./ratelimit/redis-store') as typeof import('./ratelimit/redis-store');
  const connection = connectRedis(config.redisUrl as string);
  let fallbacks = 0;
  const events = {
    outage: (error: Error) =>
      log.log('warn', config.redisFailure === 'local' ? 'rate-limit store unreachable; serving from this instance’s own buckets' : 'rate-limit store unreachable; refusing tool requests (503)', { error: error.message }),
    recovered: () => log.log('info', 'rate-limit store reachable again; budgets are shared'),
    fallback: () => void fallbacks++,
  };
  const health = new SharedStoreHealth(config.redisFailure, events);
  metrics.gaugeFrom('nettools_rate_limit_store_shared', 'Whether the shared rate-limit store answers (1) or this instance falls back or refuses (0).', () => (health.state === 'shared' ? 1 : 0), 'max');
  metrics.counterFrom('nettools_rate_limit_store_fallbacks_total', 'Budget decisions made from this instance’s own buckets while the shared store was unreachable.', () => fallbacks);
  const failover = (prefix: string, local: LimiterStore) => new FailoverStore(new RedisLimiterStore(connection.buckets, prefix), local, health, events);
  return {
    clients: failover('nettools:b:', locals.clients ?? new MemoryLimiterStore({ max: config.rateLimitCacheMax })),
    targets: failover('nettools:t:', locals.targets ?? new MemoryLimiterStore({ max: DEFAULT_TARGET_CACHE_MAX })),
    state: () => health.state,
    ready: (withinMs) => Promise.race([connection.ready(), new Promise<void>((r) => setTimeout(r, withinMs).unref())]),
    close: () => connection.close(),
  };
}
