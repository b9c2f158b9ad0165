import type { Asn } from '../asn-origin';
import type { HostTarget } from '../../validation/names';
import type { HopFigures } from './stats';

// An mtr request after validation, defaults and normalisation (host in ASCII form, IP literals bare).
export interface MtrRequest {
  host: string;
  target: HostTarget; // the host as parsed once, by normalize: what resolve-host takes
  cycles: number;
  intervalMs: number;
  maxHops: number;
  timeoutMs: number;
  ipVersion?: 4 | 6;
  resolveNames: boolean;
  asn: boolean;
}

// One address that answered at a hop, and how many of the hop's probes it answered.
export interface MtrAddress {
  address: string;
  name?: string;
  asn?: Asn;
  count: number;
}

// One TTL over every cycle so far: who answered, mtr's figures, and the ICMP message of its latest answer.
export interface MtrHop extends HopFigures {
  ttl: number;
  addresses: MtrAddress[];
  icmp?: { type: number; code: number; name: string };
}

// The 200 body (and the streamed summary): a measurement was made, whatever its outcome.
export interface MtrResult {
  host: string;
  address: string;
  ipVersion: 4 | 6;
  destinationReached: boolean;
  cycles: number; // cycles run
  hops: MtrHop[];
  durationMs: number;
  startedAt: string;
}

// A streamed mtr's event after each cycle: every hop's figures so far.
export interface MtrCycle {
  cycle: number; // 1-based
  destinationReached: boolean;
  hops: MtrHop[];
}
