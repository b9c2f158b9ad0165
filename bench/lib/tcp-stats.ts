// The tcp bench's numbers: the reference program's output read into samples, the percentiles of each side
// and their difference against the target, and what one check costs the server.
import { percentile } from './stats';

// How far apart nettools' connectMs and a plain connect() may be, at p50 and at p99.
export const CONNECT_TARGET_US = 20;

export type LoopParse = { ok: true; samplesUs: number[] } | { ok: false; error: string };

// connect-loop prints one duration in nanoseconds per line, or `error <reason>` and stops.
export function parseConnectLoop(text: string, expected: number): LoopParse {
  const lines = text.split('\n').filter((l) => l.length > 0);
  const failed = lines.find((l) => l.startsWith('error '));
  if (failed !== undefined) return { ok: false, error: `connect-loop: ${failed.slice(6)} after ${lines.indexOf(failed)} connections` };
  const samplesUs: number[] = [];
  for (const line of lines) {
    if (!/^\d+$/.test(line)) return { ok: false, error: `connect-loop printed a line that is not nanoseconds: ${JSON.stringify(line)}` };
    samplesUs.push(Number(line) / 1000);
  }
  if (samplesUs.length !== expected) return { ok: false, error: `connect-loop gave ${samplesUs.length} samples, ${expected} asked` };
  return { ok: true, samplesUs };
}

export interface Spread {
  count: number;
  p50Us: number;
  p99Us: number;
}

export function spread(samplesUs: readonly number[]): Spread | null {
  const p50 = percentile(samplesUs, 50);
  const p99 = percentile(samplesUs, 99);
  return p50 === null || p99 === null ? null : { count: samplesUs.length, p50Us: p50, p99Us: p99 };
}

export interface Comparison {
  nettools: Spread;
  reference: Spread;
  p50DiffUs: number; // nettools minus the reference
  p99DiffUs: number;
  met: boolean; // both differences within CONNECT_TARGET_US either way
}

export function compare(nettoolsUs: readonly number[], referenceUs: readonly number[]): Comparison | null {
  const nettools = spread(nettoolsUs);
  const reference = spread(referenceUs);
  if (nettools === null || reference === null) return null;
  const p50DiffUs = nettools.p50Us - reference.p50Us;
  const p99DiffUs = nettools.p99Us - reference.p99Us;
  return { nettools, reference, p50DiffUs, p99DiffUs, met: Math.abs(p50DiffUs) <= CONNECT_TARGET_US && Math.abs(p99DiffUs) <= CONNECT_TARGET_US };
}

export interface CheckCost {
  checks: number;
  cpuUsPerCheck: number; // user + system
  systemUsPerCheck: number; // the kernel's part: sockets, and the handshakes' packets processed in the server's context
  checksPerCoreSecond: number; // checks one fully busy core would do at that cost
}

// The server's user and system clock ticks (USER_HZ) over the load, and the checks it made in it.
export function checkCost(ticks: { user: number; system: number }, ticksPerSecond: number, checks: number): CheckCost | null {
  const total = ticks.user + ticks.system;
  if (!(checks > 0) || !(total > 0) || !(ticksPerSecond > 0)) return null;
  const usPerTick = 1e6 / ticksPerSecond;
  const cpuUsPerCheck = (total * usPerTick) / checks;
  return { checks, cpuUsPerCheck, systemUsPerCheck: (ticks.system * usPerTick) / checks, checksPerCoreSecond: 1e6 / cpuUsPerCheck };
}

// A counter with one label, by that label's value, read from the server's /metrics text.
export function countsByLabel(metrics: string, name: string, label: string): Record<string, number> {
  const out: Record<string, number> = {};
  const line = new RegExp(`^${name}\\{${label}="([a-z-]+)"\\} (\\d+)$`, 'gm');
  for (const m of metrics.matchAll(line)) out[m[1]!] = Number(m[2]);
  return out;
}

// nettools_tcp_attempts_total by result.
export const attemptsByResult = (metrics: string) => countsByLabel(metrics, 'nettools_tcp_attempts_total', 'result');

// nettools_http_check_requests_total by outcome (`answered`, `connect-refused`, ...).
export const httpChecksByOutcome = (metrics: string) => countsByLabel(metrics, 'nettools_http_check_requests_total', 'outcome');
