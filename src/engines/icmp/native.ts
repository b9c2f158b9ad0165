import { addon } from '../../native/addon';
import type { EchoProgress, NativeIcmpEngine, NativeIcmpEngineClass, PingDone } from '../../native/icmp-engine';
import type { EchoOptions, TraceOptions } from './types';

// The binding's shapes are typed beside the addon (src/native/icmp-engine.ts); this file starts pings
// and traces on it.
export type { EchoProgress, NativeIcmpEngine, NativeStats, PingDone, PingLimits } from '../../native/icmp-engine';
export type { Range } from '../../native/limits';

export function nativeEngineClass(): NativeIcmpEngineClass {
  return addon().IcmpEngine;
}

// Starts one ping on the engine: the options go positionally (the address as its bytes), ttl -1 for the socket's default; without
// `progress` the engine makes no call per echo.
export function nativePing(engine: NativeIcmpEngine, o: EchoOptions, done: PingDone, progress?: EchoProgress): number {
  return engine.ping(o.address.bytes, o.address.family, o.count, o.intervalMs, o.timeoutMs, o.size, o.ttl ?? -1, done, progress);
}

// Starts one trace on the engine: echo i goes out with TTL / hop limit 1 + floor(i / probesPerHop).
export function nativeTrace(engine: NativeIcmpEngine, o: TraceOptions, done: PingDone, progress?: EchoProgress): number {
  return engine.trace(o.address.bytes, o.address.family, o.maxHops, o.probesPerHop, o.timeoutMs, o.paceUs, o.size, done, progress);
}
