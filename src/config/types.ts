import type { Cidr } from '../net/ip';

export interface ResolverConfig {
  id: string;
  address: string; // IP literal, no brackets
  port: number;
  family: 4 | 6;
}

export interface RateLimitConfig {
  capacity: number; // bucket size
  windowMs: number; // time to refill the whole bucket
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
  rateLimitCacheMax: number;
  shutdownGraceMs: number;
  bodyTimeoutMs: number;
}
