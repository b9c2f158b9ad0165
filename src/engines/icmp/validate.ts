import { isIPv4, isIPv6 } from 'node:net';
import { nativeEngineClass, type PingLimits, type Range } from './native';
import type { EchoOptions } from './types';

// The engine's own limits, read from the addon once: the numbers exist only on the C++ side, which
// still refuses anything outside them as a guard.
let limits: PingLimits | undefined;

export function pingLimits(): PingLimits {
  limits ??= nativeEngineClass().limits;
  return limits;
}

function inRange(v: unknown, [lo, hi]: Range): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
}

// The one validation of ping options, so the native side receives plain, sane numbers; returns what
// is wrong, or null.
export function checkEchoOptions(o: EchoOptions): string | null {
  if (o.family !== 4 && o.family !== 6) return 'family must be 4 or 6';
  if (typeof o.address !== 'string') return 'address must be a string';
  const literal = o.address.split('%')[0]!;
  if (o.family === 4 ? !isIPv4(literal) : !isIPv6(literal)) return `address is not an IPv${o.family} literal`;
  const l = pingLimits();
  for (const key of ['count', 'intervalMs', 'timeoutMs', 'size', 'ttl'] as const) {
    if (key === 'ttl' && o.ttl === undefined) continue;
    if (!inRange(o[key], l[key])) return `${key} must be an integer in ${l[key][0]}..${l[key][1]}`;
  }
  return null;
}
