import { addon } from '../../native/addon';
import type { FamilyStats, KindPreference, EchoOptions, SocketKind, TraceOptions } from './types';

// The shapes the C++ binding (native/icmp/icmp_engine_binding.cc) hands over.
export interface NativeFamily {
  kind: SocketKind | null;
  id?: number;
  error?: string;
}

export interface NativeStats {
  v4: FamilyStats;
  v6: FamilyStats;
  sessions: number;
}

export interface NativeIcmpEngine {
  // Positional (see nativePing); `done` gets the result packed (see unpack.ts); its numbers are the
  // engine's own array, rewritten by its next result: unpack first.
  ping(
    address: string,
    family: number,
    count: number,
    intervalMs: number,
    timeoutMs: number,
    size: number,
    ttl: number,
    done: (numbers: Float64Array, texts: string) => void,
    progress?: EchoProgress,
  ): number;
  // One session probing TTLs 1..maxHops, probesPerHop echoes each, paceUs apart (see nativeTrace).
  trace(
    address: string,
    family: number,
    maxHops: number,
    probesPerHop: number,
    timeoutMs: number,
    paceUs: number,
    size: number,
    done: (numbers: Float64Array, texts: string) => void,
    progress?: EchoProgress,
  ): number;
  cancel(session: number): void;
  close(): void;
  socketKinds(): { v4: NativeFamily; v6: NativeFamily };
  stats(): NativeStats;
}

// One echo's outcome as it is decided: its index (seq) and its eight packed numbers first in the engine's
// shared array (see unpackEcho), its texts.
export type EchoProgress = (index: number, numbers: Float64Array, texts: string) => void;

// [min, max], both inclusive.
export type Range = readonly [number, number];

// The engine's limits for each ping option, defined only in native/icmp/icmp_limits.h.
export interface PingLimits {
  readonly count: Range;
  readonly intervalMs: Range;
  readonly timeoutMs: Range;
  readonly size: Range;
  readonly ttl: Range;
}

export interface NativeIcmpEngineClass {
  new (kind?: KindPreference): NativeIcmpEngine; // positional, like every binding call
  readonly limits: PingLimits;
  readonly statusNames: readonly string[]; // index: the status number in a packed result
}

export function nativeEngineClass(): NativeIcmpEngineClass {
  const ctor = addon().IcmpEngine;
  if (typeof ctor !== 'function') throw new Error('the native addon has no IcmpEngine export');
  return ctor as NativeIcmpEngineClass;
}

// Starts one ping on the engine: the options go positionally, ttl -1 for the socket's default; without
// `progress` the engine makes no call per echo.
export function nativePing(
  engine: NativeIcmpEngine,
  o: EchoOptions,
  done: (numbers: Float64Array, texts: string) => void,
  progress?: EchoProgress,
): number {
  return engine.ping(o.address, o.family, o.count, o.intervalMs, o.timeoutMs, o.size, o.ttl ?? -1, done, progress);
}

// Starts one trace on the engine: echo i goes out with TTL / hop limit 1 + floor(i / probesPerHop).
export function nativeTrace(
  engine: NativeIcmpEngine,
  o: TraceOptions,
  done: (numbers: Float64Array, texts: string) => void,
  progress?: EchoProgress,
): number {
  return engine.trace(o.address, o.family, o.maxHops, o.probesPerHop, o.timeoutMs, o.paceUs, o.size, done, progress);
}
