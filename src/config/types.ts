import type { Cidr } from '../net/ip';
import type { Plan } from '../ratelimit/plans';
import type { RateLimitConfig } from '../ratelimit/rate-limit-config';

export type { RateLimitConfig };

export interface ResolverConfig {
  id: string;
  address: string; // IP literal, no brackets
  port: number;
  family: 4 | 6;
  tlsName?: string; // DoT (RFC 7858): the name the resolver's certificate is checked against; absent: UDP
}


export interface Config {
  port: number;
  host: string;
  resolvers: ResolverConfig[];
  rateLimit: RateLimitConfig;
  allowPrivateTargets: boolean;
  asnZoneV4: string; // lowercase, no final dot
  asnZoneV6: string;
  asnPrivateHops: boolean; // ask the ASN zones about special-range hop addresses too
  trustProxy: Cidr[];
  corsOrigin: string;
  metrics: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  maxInFlightPerClient: number;
  maxInFlight: number;
  targetEchoesPerSecond: number;
  streamMaxSeconds: number; // a streamed ping's longest run
  targetConnectionsPerMinute: number; // TCP connections a minute to one address and port
  tlsCaFile: string | null; // PEM trust anchors the tls check adds to the system's
  httpBodyMaxBytes: number; // body bytes the http check reads and hashes
  httpContact: string; // the operator's address or URL in the http check's User-Agent; empty: none
  checkPorts: number[]; // ports below 1024 besides 80 and 443 that connection checks may use
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
  agentKeysFile: string | null; // null: this server accepts no agents
  maxAgents: number;
  maxLocationsPerRequest: number; // locations one tool request may name
  location: string | null; // null: a hub calls itself "local"; an agent must be given its name
  locationLabels: Record<string, string>;
  hubUrl: URL | null; // an agent's hub; null when this process is no agent
  agentKey: string | null; // an agent's key for its hub
  agentTimeoutMs: number; // a peer silent this long is dropped, on either end
  agentReconnectMs: number; // an agent's first backoff before dialling its hub again
  agentReconnectMaxMs: number; // and its cap
}
