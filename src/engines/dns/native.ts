import { addon } from '../../native/addon';
import type { NativeDnsEngineClass } from '../../native/dns-engine';

// The binding's shapes are typed beside the addon (src/native/dns-engine.ts).
export type { NativeDnsEngine } from '../../native/dns-engine';

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
  return addon().DnsEngine;
}

// A JS error thrown by the binding carries the engine's status code.
export function errorCode(err: unknown): string {
  const code: unknown = err instanceof Error ? (err as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : 'internal';
}
