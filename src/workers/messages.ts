import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { SharedCapMemory } from '../ratelimit/shared-cap';
import type { SharedInFlightMemory } from '../ratelimit/shared-in-flight';
import type { SharedLimiterMemory } from '../ratelimit/shared-limiter-store';

// What the main thread hands each worker thread at start.
export interface WorkerStart {
  index: number;
  argv: string[]; // the process's settings as flags; the environment is inherited
  port: number; // the one port every worker listens on
  memory: { clients: SharedLimiterMemory; targets: SharedLimiterMemory; resolvers: SharedLimiterMemory; inFlight: SharedInFlightMemory; traces: SharedCapMemory; agents: SharedCapMemory };
}

// main -> worker
export type ToWorker =
  | { type: 'shutdown'; graceMs: number }
  | { type: 'reload-keys' }
  | { type: 'collect'; id: number }
  | { type: 'metrics-text'; id: number; text: string };

// worker -> main
export type FromWorker =
  | { type: 'listening'; info: Record<string, unknown> }
  | { type: 'failed'; message: string; exitCode: number }
  | { type: 'stopped'; unfinished: number }
  | { type: 'keys-reloaded'; ok: boolean; keys: number; error?: string; apiKeysOff?: true }
  | { type: 'collected'; id: number; metrics: MetricObjectWithValues<MetricValue<string>>[] }
  | { type: 'metrics-wanted'; id: number };
