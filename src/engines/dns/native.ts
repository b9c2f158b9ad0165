import { addon } from '../../native/addon';
import type { Answer, CnameLink, EngineCounters, Flag, RecordType } from './types';

// The shapes the C++ binding (native/dns/dns_engine_binding.cc) hands over.
export interface NativeQuerySpec {
  address: string;
  port: number;
  name: string;
  type: RecordType;
  timeoutMs: number;
}

export type NativeOutcome =
  | { rcode: string; flags: Flag[]; rttMs: number; transport: 'udp' | 'tcp'; answers: Answer[]; cnames: CnameLink[] }
  | { error: string; detail?: string };

// Every (resolver, type) pair of one request; outcomes come back resolver-major, packed (see unpack.ts),
// in one callback.
export interface NativeBatchSpec {
  name: string;
  types: readonly RecordType[];
  resolvers: ReadonlyArray<{ address: string; port: number }>;
  timeoutMs: number;
}

export interface NativeDnsEngine {
  // Both return an id for cancel(), or 0 when `done` was already called because nothing could start.
  query(spec: NativeQuerySpec, done: (outcome: NativeOutcome) => void): number;
  queryMany(spec: NativeBatchSpec, done: (packed: unknown[]) => void): number;
  // The outcomes so far with the unsettled ones as cancelled (packed for a queryMany id); `done` is then never called.
  cancel(id: number): NativeOutcome | unknown[] | undefined;
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
