import { addon } from '../../native/addon';
import type { EngineCounters, RecordType } from './types';

// The shapes the C++ binding (native/dns/dns_engine_binding.cc) hands over.

export type NativeResolvers = ReadonlyArray<{ address: string; port: number }>;

export interface NativeDnsEngine {
  // Every (resolver, type) pair of one request; outcomes come back resolver-major, packed (see unpack.ts),
  // in one callback. An id for cancel(), or 0 when `done` was already called because nothing could start.
  // `done` gets the packed outcomes as its arguments (see unpack.ts); their numbers are the engine's own
  // buffer, rewritten by its next call: unpack first.
  // `progress`, if given, gets (index, ...packed) for each query the engine settles, as it settles (index
  // resolver-major, packed one outcome, the same shared buffer), before `done`; a pair that could not
  // start is not told.
  queryMany(
    name: string,
    types: readonly RecordType[],
    resolvers: NativeResolvers,
    timeoutMs: number,
    done: (...packed: unknown[]) => void,
    progress?: (index: number, ...packed: unknown[]) => void,
  ): number;
  // The outcomes so far, packed (what `done` would get, in an array), with the unsettled ones as
  // cancelled; `done` is then never called.
  cancel(id: number): unknown[] | undefined;
  counters(): EngineCounters;
  close(): void;
}

// [min, max], both inclusive.
export type Range = readonly [number, number];

// The engine's limits, defined only in native/dns/dns_limits.h.
export interface DnsLimits {
  // Queries one engine may have on the wire to one resolver at once.
  readonly windowPerResolver: Range;
}

// `windowPerResolver`: within limits.windowPerResolver; the whole window when left out.
interface NativeDnsEngineClass {
  new (windowPerResolver?: number): NativeDnsEngine;
  readonly limits: DnsLimits;
}

// The most queries on the wire to one resolver at once, all engines together.
export function resolverWindow(): number {
  return nativeEngineClass().limits.windowPerResolver[1];
}

// Each of `engines` engines sending to the same resolvers (one per worker thread) gets an equal share of
// the window, so together they put no more on a resolver's socket buffer than one engine would.
export function windowShare(engines: number): number {
  return Math.max(1, Math.floor(resolverWindow() / Math.max(1, engines)));
}

export function nativeEngineClass(): NativeDnsEngineClass {
  const ctor = addon().DnsEngine;
  if (typeof ctor !== 'function') throw new Error('the native addon has no DnsEngine export');
  return ctor as NativeDnsEngineClass;
}

// A JS error thrown by the binding carries the engine's status code.
export function errorCode(err: unknown): string {
  const code: unknown = err instanceof Error ? (err as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : 'internal';
}
