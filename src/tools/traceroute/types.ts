import type { Asn } from '../asn-origin';
import type { Address } from '../../net/address';
import type { HostTarget } from '../../validation/names';
// A traceroute request after validation, defaults and normalisation (host in ASCII form, IP literals bare).
export interface TracerouteRequest {
  host: string;
  target: HostTarget; // the host as parsed once, by normalize: what resolve-host takes
  maxHops: number;
  probesPerHop: number;
  timeoutMs: number;
  ipVersion?: 4 | 6;
  resolveNames: boolean;
  asn: boolean;
}

// Who answered a probe, as a value, under a symbol (as a dns record's ADDRESS): JSON and deep
// comparisons see `address`, its text; the hop's name is asked from these bytes.
export const SENDER: unique symbol = Symbol('sender');

// The answer to one probe: who answered, how fast, with which ICMP message; or nothing in time.
export type TraceProbe = { address: string; rttMs: number; icmp: { type: number; code: number; name: string }; readonly [SENDER]?: Address } | { status: 'timeout' };

export interface TraceHop {
  ttl: number;
  probes: TraceProbe[];
  name?: string;
  asn?: Asn;
}

// The 200 body: a measurement was made, whatever its outcome.
export interface TracerouteResult {
  host: string;
  address: string;
  ipVersion: 4 | 6;
  destinationReached: boolean;
  hops: TraceHop[];
  durationMs: number;
  startedAt: string;
}
