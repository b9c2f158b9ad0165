import type { HostTarget } from '../../validation/names';
import type { EchoReply, PacketStats, RttStats } from '../../engines/icmp/types';

// A ping request after validation, defaults and normalisation (host in ASCII form, IP literals bare).
export interface PingRequest {
  host: string;
  target: HostTarget; // the host as parsed once, by normalize: what resolve-host takes
  count: number;
  intervalMs: number;
  timeoutMs: number;
  ipVersion?: 4 | 6;
  size: number;
}

// The 200 body: a measurement was made, whatever its outcome.
export interface PingResult {
  host: string;
  address: string;
  ipVersion: 4 | 6;
  reachable: boolean;
  packets: PacketStats;
  rtt: RttStats | null;
  replies?: EchoReply[]; // absent from the streamed summary of a long ping (more than one round)
  resolveMs: number;
  durationMs: number;
  startedAt: string;
}
