import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { median } from '../lib/stats';
import type { DnsEngineRow, IcmpRow } from '../lib/types';
import { closedLoop } from './loop';

// The one adapter between the bench and the native engines' own JS APIs. The engines land from
// other branches; until their compiled modules exist under dist/src/engines/ each row reports
// "unavailable: engine not built". The shapes below are the ones those wrappers publish
// (openResolverClient in engines/dns, openPinger in engines/icmp); if they change, this file alone
// changes, and a missing function reports unavailable rather than a number.

const ENGINES = path.resolve(__dirname, '..', '..', 'src', 'engines');
const NOT_BUILT = 'unavailable: engine not built';

interface ResolverClientLike {
  query(request: { domain: string; types: string[]; resolvers: Array<{ id: string; address: string; port: number; family: 4 | 6 }>; timeoutMs: number }): Promise<Array<{ queries: Record<string, unknown> }>>;
  close(): void;
}

interface PingerLike {
  ping(options: { address: string; family: 4 | 6; count: number; intervalMs: number; timeoutMs: number; size: number }): Promise<{ replies: Array<{ status: string; rttMs?: number }> }>;
  close(): void;
}

function load<T>(file: string, exported: string): (() => T) | null {
  const full = path.join(ENGINES, file);
  if (!existsSync(full)) return null;
  const mod = require(full) as Record<string, unknown>;
  const fn = mod[exported];
  return typeof fn === 'function' ? (fn as () => T) : null;
}

export async function measureNativeDns(opts: { address: string; port: number; name: string; durationS: number; inFlight: number }): Promise<DnsEngineRow['result']> {
  const open = load<ResolverClientLike>(path.join('dns', 'index.js'), 'openResolverClient');
  if (open === null) return { ok: false, unavailable: NOT_BUILT };
  const client = open();
  const request = { domain: opts.name, types: ['A'], resolvers: [{ id: 'bench', address: opts.address, port: opts.port, family: 4 as const }], timeoutMs: 2000 };
  try {
    const r = await closedLoop(opts.inFlight, opts.durationS, async () => {
      const [answer] = await client.query(request);
      const entry = answer?.queries['A'] as { rcode?: string } | undefined;
      return entry?.rcode === 'NOERROR';
    });
    if (r.completed === 0) return { ok: false, unavailable: `unavailable: no query answered (${r.failed} failed)` };
    return { ok: true, queriesPerSecond: r.completed / r.elapsedS, completed: r.completed, failed: r.failed, inFlight: opts.inFlight, durationS: r.elapsedS };
  } finally {
    client.close();
  }
}

const ECHO = { address: '127.0.0.1', family: 4 as const, count: 1, intervalMs: 100, timeoutMs: 1000, size: 56 };

// Echoes/s with `inFlight` single-echo pings outstanding, then the RTT median of `rttSamples`
// echoes sent one at a time 10 ms apart (the same pacing as the iputils reference).
export async function measureNativeIcmp(opts: { durationS: number; inFlight: number; rttSamples: number }): Promise<IcmpRow['result']> {
  const open = load<PingerLike>(path.join('icmp', 'pinger.js'), 'openPinger');
  if (open === null) return { ok: false, unavailable: NOT_BUILT };
  const pinger = open();
  try {
    const replied = async () => (await pinger.ping(ECHO)).replies.some((r) => r.status === 'reply');
    const burst = await closedLoop(opts.inFlight, opts.durationS, replied);
    const rtts: number[] = [];
    for (let i = 0; i < opts.rttSamples; i++) {
      const started = performance.now();
      const reply = (await pinger.ping(ECHO)).replies.find((r) => r.status === 'reply');
      if (reply?.rttMs !== undefined) rtts.push(reply.rttMs * 1000);
      await new Promise((r) => setTimeout(r, Math.max(0, 10 - (performance.now() - started))));
    }
    if (burst.completed === 0 && rtts.length === 0) return { ok: false, unavailable: 'unavailable: no echo came back' };
    return { ok: true, echoesPerSecond: burst.completed / burst.elapsedS, rttMedianUs: median(rtts), samples: rtts.length };
  } finally {
    pinger.close();
  }
}
