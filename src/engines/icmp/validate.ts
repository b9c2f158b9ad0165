import { isIPv4, isIPv6 } from 'node:net';
import type { PingOptions } from './types';

export const LIMITS = {
  count: [1, 10000],
  intervalMs: [1, 60000],
  timeoutMs: [1, 60000],
  size: [0, 1400],
  ttl: [1, 255],
} as const;

function inRange(v: unknown, [lo, hi]: readonly [number, number]): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
}

// Checked here so the native side receives plain, sane numbers; returns what is wrong, or null.
export function checkPingOptions(o: PingOptions): string | null {
  if (o.family !== 4 && o.family !== 6) return 'family must be 4 or 6';
  if (typeof o.address !== 'string') return 'address must be a string';
  const literal = o.address.split('%')[0]!;
  if (o.family === 4 ? !isIPv4(literal) : !isIPv6(literal)) return `address is not an IPv${o.family} literal`;
  for (const key of ['count', 'intervalMs', 'timeoutMs', 'size'] as const) {
    if (!inRange(o[key], LIMITS[key])) return `${key} must be an integer in ${LIMITS[key][0]}..${LIMITS[key][1]}`;
  }
  if (o.ttl !== undefined && !inRange(o.ttl, LIMITS.ttl)) return 'ttl must be an integer in 1..255';
  return null;
}
