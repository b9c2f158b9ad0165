import { execFile } from 'node:child_process';
import { track } from '../lib/children';
import { parseFpingCounts, parseIputilsPing } from '../lib/ping-output';
import { probe } from '../lib/probe';
import { median } from '../lib/stats';
import type { IcmpRow } from '../lib/types';

// Reference RTTs on loopback from the tools people trust, and what our endpoint reports for the same
// address. Every run is bounded by a count and a deadline.

function run(cmd: string, args: string[], timeoutS: number): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(cmd, args, { timeout: timeoutS * 1000 }, (_err, stdout, stderr) => resolve({ stdout: String(stdout), stderr: String(stderr) }));
    track(child, cmd);
  });
}

const TARGET = '127.0.0.1';

// Every RTT source sends one echo every PACING_MS: the endpoint's fastest pacing, so all three see the
// same idle time between echoes (a longer idle lets the CPUs sleep deeper and slows the next wake-up).
export const PACING_MS = 100;

export async function iputilsRtt(samples: number): Promise<IcmpRow['result']> {
  const { stdout } = await run('ping', ['-n', '-c', String(samples), '-i', String(PACING_MS / 1000), '-W', '1', TARGET], (samples * PACING_MS) / 1000 + 10);
  const parsed = parseIputilsPing(stdout);
  const rtts = parsed?.replies.filter((r) => !r.duplicate).map((r) => r.rttMs * 1000) ?? [];
  if (rtts.length === 0) return { ok: false, unavailable: 'unavailable: ping got no reply' };
  return { ok: true, echoesPerSecond: null, rttMedianUs: median(rtts), samples: rtts.length };
}

// Flood mode sends the next echo as soon as the previous one returns: iputils' echoes/s, one at a time.
export async function iputilsFlood(count: number, deadlineS: number): Promise<IcmpRow['result']> {
  const { stdout } = await run('ping', ['-n', '-q', '-f', '-c', String(count), '-w', String(deadlineS), TARGET], deadlineS + 5);
  const parsed = parseIputilsPing(stdout);
  if (parsed === null || parsed.timeMs === null || parsed.timeMs <= 0 || parsed.received === 0) return { ok: false, unavailable: 'unavailable: ping -f printed no statistics' };
  return { ok: true, echoesPerSecond: parsed.received / (parsed.timeMs / 1000), rttMedianUs: null, samples: parsed.received };
}

export async function fpingRtt(samples: number): Promise<IcmpRow['result']> {
  const { stderr } = await run('fping', ['-q', '-C', String(samples), '-p', String(PACING_MS), TARGET], (samples * PACING_MS) / 1000 + 10);
  const parsed = parseFpingCounts(stderr, TARGET);
  if (parsed === null || parsed.rttMs.length === 0) return { ok: false, unavailable: 'unavailable: fping got no reply' };
  return { ok: true, echoesPerSecond: null, rttMedianUs: median(parsed.rttMs.map((ms) => ms * 1000)), samples: parsed.rttMs.length };
}

// What a user of the API sees: the replies' rttMs from POST /api/tools/ping (10 echoes 100 ms apart
// per request, the endpoint's fastest pacing).
export async function endpointRtt(url: string, requests: number): Promise<IcmpRow['result']> {
  const rtts: number[] = [];
  for (let i = 0; i < requests; i++) {
    const reply = await probe(url, '/api/tools/ping', JSON.stringify({ host: TARGET, count: 10, intervalMs: PACING_MS }), undefined, 15_000);
    if (reply.status !== 200) return { ok: false, unavailable: `unavailable: ${reply.status} ${reply.code ?? '(no code)'}` };
    const body = JSON.parse(reply.body) as { replies?: Array<{ status: string; rttMs?: number }> };
    for (const r of body.replies ?? []) if (r.status === 'reply' && typeof r.rttMs === 'number') rtts.push(r.rttMs * 1000);
  }
  if (rtts.length === 0) return { ok: false, unavailable: 'unavailable: the endpoint reported no reply' };
  return { ok: true, echoesPerSecond: null, rttMedianUs: median(rtts), samples: rtts.length };
}
