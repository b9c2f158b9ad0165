import { spawn } from 'node:child_process';
import path from 'node:path';
import type { LatencyUs, LoadErrors } from './types';
import { track } from './children';

// The script sits in the source tree; dist/bench/lib/ -> bench/wrk/.
export const POST_SCRIPT = path.resolve(__dirname, '..', '..', '..', 'bench', 'wrk', 'post.lua');

export interface WrkSummary {
  durationUs: number;
  requests: number;
  bytes: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyUs: LatencyUs;
}

export type WrkParse = { ok: true; summary: WrkSummary } | { ok: false; error: string };

const MARKER = 'WRK_JSON ';

// Reads the line printed by post.lua's done() hook; everything else wrk prints is for humans.
export function parseWrkOutput(stdout: string): WrkParse {
  const line = stdout.split('\n').find((l) => l.startsWith(MARKER));
  if (line === undefined) return { ok: false, error: 'wrk printed no WRK_JSON line (did the Lua script load?)' };
  let raw: unknown;
  try {
    raw = JSON.parse(line.slice(MARKER.length));
  } catch (err) {
    return { ok: false, error: `WRK_JSON line is not JSON: ${(err as Error).message}` };
  }
  const problem = checkSummary(raw);
  if (problem !== null) return { ok: false, error: `WRK_JSON line: ${problem}` };
  return { ok: true, summary: raw as WrkSummary };
}

function checkSummary(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null) return 'not an object';
  const o = raw as Record<string, unknown>;
  for (const key of ['durationUs', 'requests', 'bytes']) if (!isCount(o[key])) return `${key} is not a count`;
  if ((o['durationUs'] as number) <= 0) return 'durationUs is not positive';
  const errors = o['errors'] as Record<string, unknown> | undefined;
  if (typeof errors !== 'object' || errors === null) return 'errors missing';
  for (const key of ['connect', 'read', 'write', 'status', 'timeout']) if (!isCount(errors[key])) return `errors.${key} is not a count`;
  const lat = o['latencyUs'] as Record<string, unknown> | undefined;
  if (typeof lat !== 'object' || lat === null) return 'latencyUs missing';
  for (const key of ['min', 'mean', 'max', 'p50', 'p90', 'p99', 'p999']) {
    const v = lat[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return `latencyUs.${key} is not a non-negative number`;
  }
  if (!((lat['p50'] as number) <= (lat['p90'] as number) && (lat['p90'] as number) <= (lat['p99'] as number) && (lat['p99'] as number) <= (lat['p999'] as number))) {
    return 'latency percentiles are not in order';
  }
  return null;
}

function isCount(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

export function requestsPerSecond(s: WrkSummary): number {
  return s.requests / (s.durationUs / 1e6);
}

// wrk counts every status >= 400 as a "status error". A scenario that expects 400 turns that around.
export function loadErrors(s: WrkSummary, expectedStatus: number): LoadErrors {
  const unexpectedStatus = expectedStatus >= 400 ? s.requests - s.errors.status : s.errors.status;
  return { connect: s.errors.connect, read: s.errors.read, write: s.errors.write, timeout: s.errors.timeout, unexpectedStatus };
}

export interface WrkRun {
  url: string;
  body: string;
  connections: number;
  threads: number;
  durationS: number;
  timeoutS: number;
  header?: string; // one more request header, "Name: value"
  script?: string; // another Lua script than post.lua (it must print the same WRK_JSON line)
  scriptArgs?: string[]; // its arguments after the body, in place of the header
}

// One bounded wrk run; killed if it overstays its duration by a wide margin.
export function runWrk(run: WrkRun): Promise<WrkParse> {
  const args = [
    '-t', String(Math.min(run.threads, run.connections)),
    '-c', String(run.connections),
    '-d', `${run.durationS}s`,
    '--timeout', `${run.timeoutS}s`,
    '-s', run.script ?? POST_SCRIPT,
    run.url,
    '--',
    run.body,
    ...(run.scriptArgs ?? (run.header === undefined ? [] : [run.header])),
  ];
  return new Promise((resolve) => {
    const child = track(spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] }), `wrk -c ${run.connections}`);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const guard = setTimeout(() => child.kill('SIGKILL'), (run.durationS + run.timeoutS + 15) * 1000);
    child.on('error', (err) => {
      clearTimeout(guard);
      resolve({ ok: false, error: `wrk did not start: ${err.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      const parsed = parseWrkOutput(stdout);
      if (!parsed.ok && (code !== 0 || signal !== null)) {
        resolve({ ok: false, error: `wrk exited with ${signal ?? code}: ${stderr.trim().split('\n').slice(-2).join(' ')}` });
      } else resolve(parsed);
    });
  });
}
