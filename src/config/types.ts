import type { Cidr } from '../net/ip';
import type { Plan } from '../ratelimit/plans';
import type { RateLimitConfig } from '../ratelimit/rate-limit-config';

export type { RateLimitConfig };

export interface ResolverConfig {
  id: string;
  address: string; // IP literal, no brackets
  port: number;
  family: 4 | 6;
}


export interface Config {
  port: number;
  host: string;
  resolvers: ResolverConfig[];
  rateLimit: RateLimitConfig;
  allowPrivateTargets: boolean;
  trustProxy: Cidr[];
  corsOrigin: string;
  metrics: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  maxInFlightPerClient: number;
  maxInFlight: number;
  targetEchoesPerSecond: number;
  streamMaxSeconds: number; // a streamed ping's longest run
  maxTracesInFlight: number;
  targetTracesPerMinute: number;
  rateLimitCacheMax: number;
  shutdownGraceMs: number;
  bodyTimeoutMs: number;
  apiKeysFile: string | null; // null: keys are off and the Authorization header is ignored
  plans: Map<string, Plan>;
  workers: number; // HTTP worker threads; 1 serves from the main thread
  resolverQps: number; // queries a second to each resolver, at most
  redisUrl: string | null; // null: budgets live in this process
  redisFailure: 'local' | 'closed';
}
