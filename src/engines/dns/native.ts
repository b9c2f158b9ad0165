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

export interface NativeDnsEngine {
  query(spec: NativeQuerySpec, done: (outcome: NativeOutcome) => void): number;
  cancel(id: number): boolean;
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
