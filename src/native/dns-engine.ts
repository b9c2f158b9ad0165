import type { Range } from './limits';
import type { Packed } from './packed';

// What the addon's DnsEngine class (native/dns/dns_engine_binding.cc) takes and hands over. The engine's
// TypeScript side (src/engines/dns) wraps it; nothing else calls it.

// Outcomes packed (src/native/packed.ts; src/engines/dns/unpack.ts reads them). The numbers are the
// engine's own buffer, rewritten by its next call: unpack first.
export type PackedOutcomes = Packed;

export interface NativeDnsCounters {
  queries: number;
  sent: number;
  answered: number;
  timeouts: number;
  retries: number;
  tcpFallbacks: number;
  mismatchedDropped: number;
  malformedDropped: number;
  errors: number;
  cancelled: number;
  inFlight: number;
  openSockets: number; // UDP sockets open now, current and retired
  tlsConnections: number; // DoT connections opened
  openTlsConnections: number; // DoT connections open now, idle ones included
}

export interface NativeDnsEngine {
  // The number queryMany takes for a resolver, made once per resolver (the same three give the same
  // number); 0 when the address, port or name is no such thing, whose queries are then invalid-address
  // outcomes. tlsName: a DoT resolver, its certificate checked against that name; absent: UDP (TCP after
  // truncation). Throws past the engine's bound of distinct resolvers (1024).
  endpoint(address: string, port: number, tlsName?: string): number;
  // Every (resolver, type) pair of one request; outcomes come back resolver-major, packed, as the
  // arguments of one `done` call. An id for cancel(), or 0 when `done` was already called because
  // nothing could start. `progress`, if given, gets (index, ...packed) for each query the engine
  // settles, as it settles (index resolver-major, packed one outcome), before `done`; a pair that could
  // not start is not told. A type the engine does not know is that pair's invalid-type outcome.
  queryMany(
    name: string,
    types: readonly string[],
    endpoints: readonly number[], // endpoint()'s, one per resolver
    timeoutMs: number,
    done: (...packed: PackedOutcomes) => void,
    progress?: (index: number, ...packed: PackedOutcomes) => void,
    // The DO bit; an ECS option for this address (masked to the prefix by the engine) and prefix length.
    dnssec?: boolean,
    subnetAddress?: string,
    subnetPrefix?: number,
  ): number;
  // The outcomes so far, packed (what `done` would get, in an array), with the unsettled ones as
  // cancelled; `done` is then never called. Undefined for an unknown id.
  cancel(id: number): PackedOutcomes | undefined;
  counters(): NativeDnsCounters;
  // Every open socket `ms` older and every DoT connection idle `ms` longer, for tests of the socket age
  // limit (250 ms) and the idle close (10 s) that then need not wait for them.
  ageSockets(ms: number): void;
  close(): void;
}

// The engine's limits, defined only in native/dns/dns_limits.h.
export interface DnsLimits {
  // Queries one engine may have on the wire to one resolver at once.
  readonly windowPerResolver: Range;
}

export interface NativeDnsEngineClass {
  // `windowPerResolver` within limits.windowPerResolver; the whole window when left out. `tlsCaFile`: a PEM
  // file of trust anchors DoT resolvers may chain to besides the system's.
  new (windowPerResolver?: number, tlsCaFile?: string): NativeDnsEngine;
  readonly limits: DnsLimits;
}
