import { addon } from '../../native/addon';
import type { EngineCounters, RecordType } from './types';

// The shapes the C++ binding (native/dns/dns_engine_binding.cc) hands over.

export type NativeResolvers = ReadonlyArray<{ address: string; port: number }>;

export interface NativeDnsEngine {
  // Every (resolver, type) pair of one request; outcomes come back resolver-major, packed (see unpack.ts),
  // in one callback. An id for cancel(), or 0 when `done` was already called because nothing could start.
  // `done` gets the packed outcomes as its arguments (see unpack.ts); their numbers are the engine's own
  // buffer, rewritten by its next call: unpack first.
  queryMany(name: string, types: readonly RecordType[], resolvers: NativeResolvers, timeoutMs: number, done: (...packed: unknown[]) => void): number;
  // The outcomes so far, packed (what `done` would get, in an array), with the unsettled ones as
  // cancelled; `done` is then never called.
  cancel(id: number): unknown[] | undefined;
  counters(): EngineCounters;
  close(): void;
}

type NativeDnsEngineClass = new () => NativeDnsEngine;

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
