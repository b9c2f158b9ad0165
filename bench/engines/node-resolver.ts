import { Resolver } from 'node:dns/promises';
import type { DnsEngineRow } from '../lib/types';
import { closedLoop } from './loop';
import { ENGINE_QUESTION_TYPES, type DnsEngineOptions, type EngineQuestionType } from './questions';

// The peer a Node developer would reach for: dns.promises.Resolver (c-ares), servers set to the
// loopback Knot before the first query, `inFlight` queries outstanding at all times, the engine
// questions asked in turn.
export async function measureNodeResolver(opts: DnsEngineOptions): Promise<DnsEngineRow['result']> {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([`${opts.address}:${opts.port}`]);
  const ask: Record<EngineQuestionType, () => Promise<unknown[]>> = {
    A: () => resolver.resolve4(opts.name),
    AAAA: () => resolver.resolve6(opts.name),
    MX: () => resolver.resolveMx(opts.name),
    TXT: () => resolver.resolveTxt(opts.name),
  };
  let turn = 0;
  try {
    const r = await closedLoop(opts.inFlight, opts.durationS, async () => {
      const type = ENGINE_QUESTION_TYPES[turn++ % ENGINE_QUESTION_TYPES.length] as EngineQuestionType;
      return (await ask[type]()).length > 0;
    });
    if (r.completed === 0) return { ok: false, unavailable: `unavailable: no query answered (${r.failed} failed)` };
    return { ok: true, queriesPerSecond: r.completed / r.elapsedS, completed: r.completed, failed: r.failed, inFlight: opts.inFlight, durationS: r.elapsedS };
  } finally {
    resolver.cancel();
  }
}
