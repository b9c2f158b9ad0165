import type { Address } from '../../net/address';
import { addon } from '../../native/addon';
import type { NativeIcmpEngine, NativeIcmpEngineClass, PingDone } from '../../native/icmp-engine';
import type { EchoOptions, TraceOptions } from './types';

// The binding's shapes are typed beside the addon (src/native/icmp-engine.ts); this file starts pings
// and traces on it.
export type { EchoReports, NativeIcmpEngine, NativeStats, PingDone, PingLimits } from '../../native/icmp-engine';
export type { Range } from '../../native/limits';

export function nativeEngineClass(): NativeIcmpEngineClass {
  return addon().IcmpEngine;
}

// The address goes to the engine through these views of one buffer, made once: the binding copies the
// bytes before it returns, and a buffer it sees again costs it nothing, while a fresh small Uint8Array
// (kept on V8's heap) would be moved off it on every call.
const SCRATCH = new ArrayBuffer(16);
const VIEWS = { 4: new Uint8Array(SCRATCH, 0, 4), 6: new Uint8Array(SCRATCH, 0, 16) };

function bytesOf(address: Address): Uint8Array {
  const view = VIEWS[address.family];
  // A value whose bytes do not fit its family goes as it is, for the engine's guard to refuse.
  if (address.bytes.length !== view.length) return address.bytes;
  view.set(address.bytes);
  return view;
}

// Starts one ping on the engine: the options go positionally (the address as its bytes), ttl -1 for the
// socket's default; with `report`, each echo also comes in the engine's reports as it is decided; with a
// `grant` below the count, a metered ping (NativeIcmpEngine.ping).
export function nativePing(engine: NativeIcmpEngine, o: EchoOptions, done: PingDone, report: boolean, grant = 0): number {
  return engine.ping(bytesOf(o.address), o.address.family, o.count, o.intervalMs, o.timeoutMs, o.size, o.ttl ?? -1, done, report, grant);
}

// Starts one trace on the engine: echo i goes out with TTL / hop limit 1 + floor(i / probesPerHop).
export function nativeTrace(engine: NativeIcmpEngine, o: TraceOptions, done: PingDone, report: boolean): number {
  return engine.trace(bytesOf(o.address), o.address.family, o.maxHops, o.probesPerHop, o.timeoutMs, o.paceUs, o.size, done, report);
}
