import type { HostTarget } from '../../validation/names';

// A tcp request after validation, defaults and normalisation (host in ASCII form, IP literals bare).
export interface TcpRequest {
  host: string;
  target: HostTarget; // the host as parsed once, by normalize: what resolve-host takes
  port: number;
  count: number;
  intervalMs: number;
  timeoutMs: number;
  ipVersion?: 4 | 6;
}

export type AttemptStatus = 'connected' | 'refused' | 'timeout' | 'unreachable' | 'error';

// One attempt as it stands in `results` and in a stream's `attempt` event.
export interface TcpAttempt {
  seq: number;
  status: AttemptStatus;
  connectMs?: number; // connected only
  errno?: string; // refused, unreachable, error: the socket's error (ECONNREFUSED, EHOSTUNREACH, ...)
}

export interface AttemptStats {
  sent: number;
  connected: number;
  lossPercent: number;
}

export interface ConnectStats {
  min: number;
  avg: number;
  max: number;
  stddev: number;
}

// The 200 body: the attempts were made, whatever their outcome.
export interface TcpResult {
  host: string;
  address: string;
  ipVersion: 4 | 6;
  port: number;
  connected: boolean;
  attempts: AttemptStats;
  connectMs: ConnectStats | null;
  results?: TcpAttempt[]; // absent from the streamed summary of more than 10 attempts
  resolveMs: number;
  durationMs: number;
  startedAt: string;
}
