import { Resolver } from 'node:dns/promises';
import type { DnsEngineRow } from '../lib/types';
import { closedLoop } from './loop';

// The peer a Node developer would reach for: dns.promises.Resolver (c-ares), servers set to the
// loopback Knot before the first query, `inFlight` A queries outstanding at all times.
export async function measureNodeResolver(opts: { address: string; port: number; name: string; durationS: number; inFlight: number }): Promise<DnsEngineRow['result']> {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([`${opts.address}:${opts.port}`]);
  try {
    const r = await closedLoop(opts.inFlight, opts.durationS, async () => (await resolver.resolve4(opts.name)).length > 0);
    if (r.completed === 0) return { ok: false, unavailable: `unavailable: no query answered (${r.failed} failed)` };
    return { ok: true, queriesPerSecond: r.completed / r.elapsedS, completed: r.completed, failed: r.failed, inFlight: opts.inFlight, durationS: r.elapsedS };
  } finally {
    resolver.cancel();
  }
}
