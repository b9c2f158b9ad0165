import type { Range } from './limits';
import type { Packed } from './packed';

// What the addon's IcmpEngine class (native/icmp/icmp_engine_binding.cc) takes and hands over. The
// engine's TypeScript side (src/engines/icmp) wraps it; nothing else calls it.

export type NativeSocketKind = 'dgram' | 'raw';
export type NativeKindPreference = 'auto' | NativeSocketKind;

export interface NativeFamily {
  kind: NativeSocketKind | null;
  id?: number;
  error?: string;
}

export interface NativeFamilyStats {
  inFlight: number;
  drops: number;
  stray: number;
  strayErrors: number;
  sent: number;
  traceSent: number;
}

export interface NativeStats {
  v4: NativeFamilyStats;
  v6: NativeFamilyStats;
  sessions: number;
}

// A ping's or trace's result packed (src/native/packed.ts; src/engines/icmp/unpack.ts reads it); its
// numbers are the engine's own array, rewritten by its next result: unpack first.
export type PingDone = (...packed: Packed) => void;

// The echoes one engine frame decided for pings started with `report`, packed as records that state
// their size first, then their session and index, then the echo (native/icmp/icmp_result_js.h); given
// to the engine when it is made, called once per frame (src/engines/icmp/pinger.ts reads them).
export type EchoReports = (...packed: Packed) => void;

export interface NativeIcmpEngine {
  // Positional, like every binding call (native/common/args.h); ttl -1 for the socket's default.
  // address: the 4 or 16 bytes of an address of `family` (the engine parses no text).
  ping(
    address: Uint8Array,
    family: number,
    count: number,
    intervalMs: number,
    timeoutMs: number,
    size: number,
    ttl: number,
    done: PingDone,
    report?: boolean,
    // Below count: a metered ping (report true), which sends only this many echoes until extend() grants
    // more, and whose done lists no echo (each was reported).
    grant?: number,
  ): number;
  // A metered ping may send `echoes` more, paced on from its first send; throws the engine's error
  // (`seq-exhausted`: no sequences for them, nothing changed). An ended or cancelled session: nothing.
  extend(session: number, echoes: number): void;
  // One session probing TTLs 1..maxHops, probesPerHop echoes each, paceUs apart.
  trace(
    address: Uint8Array,
    family: number,
    maxHops: number,
    probesPerHop: number,
    timeoutMs: number,
    paceUs: number,
    size: number,
    done: PingDone,
    report?: boolean,
  ): number;
  cancel(session: number): void;
  close(): void;
  socketKinds(): { v4: NativeFamily; v6: NativeFamily };
  stats(): NativeStats;
}

// The engine's limits for each ping option, defined only in native/icmp/icmp_limits.h.
export interface PingLimits {
  readonly count: Range;
  readonly intervalMs: Range;
  readonly timeoutMs: Range;
  readonly size: Range;
  readonly ttl: Range;
}

export interface NativeIcmpEngineClass {
  new (kind?: NativeKindPreference, reports?: EchoReports): NativeIcmpEngine;
  readonly limits: PingLimits;
  readonly statusNames: readonly string[]; // index: the status number in a packed result
}
