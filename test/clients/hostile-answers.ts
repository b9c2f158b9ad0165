import { run } from '../../clients/typescript/src/cli/run';

// Well-formed answers for a scripted server to send (and to spoil one field at a time), and the CLI run
// in this process with its output captured.
export const pingResult = (over: Record<string, unknown> = {}) => ({
  host: '198.18.0.1',
  address: '198.18.0.1',
  ipVersion: 4,
  reachable: true,
  packets: { sent: 1, received: 1, duplicates: 0, lossPercent: 0 },
  rtt: { minMs: 1, avgMs: 1, maxMs: 1, stddevMs: 0, jitterMs: 0 },
  replies: [{ seq: 0, status: 'reply', rttMs: 1, ttl: 64, bytes: 64 }],
  resolveMs: 0,
  durationMs: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

export const query = (rcode: string, answers: unknown[] = []) => ({ rcode, flags: ['qr'], rttMs: 1, answers });

export const dnsResult = (over: Record<string, unknown> = {}) => ({
  domain: 'example.test',
  consistent: true,
  records: { TXT: [{ value: 'v=spf1 -all', parts: ['v=spf1 -all'], ttl: 300 }] },
  resolvers: [{ id: 'a', address: '127.0.0.1', queries: { TXT: query('NOERROR', [{ value: 'v=spf1 -all', parts: ['v=spf1 -all'], ttl: 300 }]) } }],
  durationMs: 1,
  ...over,
});

export const traceResult = (over: Record<string, unknown> = {}) => ({
  host: '198.18.0.9',
  address: '198.18.0.9',
  ipVersion: 4,
  destinationReached: true,
  hops: [
    { ttl: 1, probes: [{ address: '198.18.0.2', rttMs: 0.5, icmp: { type: 11, code: 0, name: 'ttl-exceeded' } }], name: 'r1.example.test' },
    { ttl: 2, probes: [{ address: '198.18.0.9', rttMs: 0.7, icmp: { type: 0, code: 0, name: 'echo-reply' } }] },
  ],
  durationMs: 2,
  startedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

export const problem = (status: number, code: string, over: Record<string, unknown> = {}) => ({ type: `https://nettools.example/problems/${code}`, title: code, status, detail: code, code, ...over });

export interface Ran {
  code: number;
  out: string;
  err: string;
}

export async function cli(args: string[]): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

// What a terminal would act on: C0 controls but tab and line feed, DEL, C1, bidi overrides and isolates.
export const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// The first line of a stack trace.
export const STACK = /\n\s+at /;
