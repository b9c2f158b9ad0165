import { Resolver } from 'node:dns/promises';
import { performance } from 'node:perf_hooks';
import type { ResolverConfig } from '../../src/config/types';
import type { DnsRequest, RecordType } from '../../src/tools/dns/types';

// The dns endpoint written the usual way: Node's dns.promises.Resolver (c-ares), one per configured
// resolver, asked for every type at once. Its servers are set before any query, so no name ever
// reaches the system resolver.

type Answer = Record<string, unknown> & { ttl: number };
type QueryEntry = { rcode: string; rttMs: number; transport: 'udp'; answers: Answer[] } | { error: string };

export type DnsOutcome = { status: 200 | 504; body: Record<string, unknown> };

const RCODES: Record<string, string> = { ENODATA: 'NOERROR', ENOTFOUND: 'NXDOMAIN', ESERVFAIL: 'SERVFAIL', EREFUSED: 'REFUSED', EFORMERR: 'FORMERR', ENOTIMP: 'NOTIMP' };
const FAILURES: Record<string, string> = { ETIMEOUT: 'timeout', ECONNREFUSED: 'connection-refused', ECANCELLED: 'cancelled' };

// Node exposes TTLs only for A and AAAA; MX and TXT carry 0 here (stated in the README).
async function ask(resolver: Resolver, domain: string, type: RecordType): Promise<Answer[]> {
  switch (type) {
    case 'A':
      return (await resolver.resolve4(domain, { ttl: true })).map((a) => ({ address: a.address, ttl: a.ttl }));
    case 'AAAA':
      return (await resolver.resolve6(domain, { ttl: true })).map((a) => ({ address: a.address, ttl: a.ttl }));
    case 'MX':
      return (await resolver.resolveMx(domain)).map((m) => ({ priority: m.priority, exchange: m.exchange, ttl: 0 }));
    case 'TXT':
      return (await resolver.resolveTxt(domain)).map((parts) => ({ value: parts.join(''), parts, ttl: 0 }));
    case 'PTR':
      return (await resolver.resolvePtr(domain)).map((name) => ({ name, ttl: 0 }));
    default:
      // The baseline compares the four types the benches ask.
      throw new Error(`baseline dns: ${type} not offered`);
  }
}

async function query(resolver: Resolver, domain: string, type: RecordType): Promise<QueryEntry> {
  const started = performance.now();
  const rttMs = () => Math.round((performance.now() - started) * 1000) / 1000;
  try {
    const answers = await ask(resolver, domain, type);
    return { rcode: 'NOERROR', rttMs: rttMs(), transport: 'udp', answers };
  } catch (err) {
    const code = String((err as NodeJS.ErrnoException).code ?? 'unknown');
    const rcode = RCODES[code];
    if (rcode !== undefined) return { rcode, rttMs: rttMs(), transport: 'udp', answers: [] };
    return { error: FAILURES[code] ?? code.toLowerCase() };
  }
}

export function createDnsHandler(resolvers: readonly ResolverConfig[]): (request: DnsRequest) => Promise<DnsOutcome> {
  // One c-ares channel per resolver and timeout, made on first use and kept.
  const channels = new Map<string, Resolver>();
  const channel = (r: ResolverConfig, timeoutMs: number): Resolver => {
    const key = `${r.id}/${timeoutMs}`;
    let resolver = channels.get(key);
    if (resolver === undefined) {
      resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
      resolver.setServers([r.family === 6 ? `[${r.address}]:${r.port}` : `${r.address}:${r.port}`]);
      channels.set(key, resolver);
    }
    return resolver;
  };

  return async (request) => {
    const started = performance.now();
    const asked = request.resolvers === undefined ? resolvers : resolvers.filter((r) => request.resolvers!.includes(r.id));
    const results = await Promise.all(
      asked.map(async (r) => {
        const resolver = channel(r, request.timeoutMs);
        const entries = await Promise.all(request.types.map((t) => query(resolver, request.domain, t)));
        const queries: Record<string, QueryEntry> = {};
        request.types.forEach((t, i) => (queries[t] = entries[i] as QueryEntry));
        return { id: r.id, address: r.address, queries };
      }),
    );
    const { records, consistent, answered } = merge(results, request.types);
    const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
    if (!answered) return { status: 504, body: { resolvers: results } };
    return { status: 200, body: { domain: request.domain, records, consistent, resolvers: results, durationMs } };
  };
}

// Union over resolvers, de-duplicated, smallest TTL; inconsistent when two answered sets differ.
function merge(results: Array<{ queries: Record<string, QueryEntry> }>, types: readonly RecordType[]) {
  const records: Record<string, Answer[]> = {};
  let consistent = true;
  let answered = false;
  for (const type of types) {
    const union = new Map<string, Answer>();
    let firstSet: string | null = null;
    for (const { queries } of results) {
      const entry = queries[type];
      if (entry === undefined || 'error' in entry) continue;
      answered = true;
      const keys: string[] = [];
      for (const answer of entry.answers) {
        const { ttl, ...rest } = answer;
        const key = JSON.stringify(rest);
        keys.push(key);
        const seen = union.get(key);
        if (seen === undefined || ttl < seen.ttl) union.set(key, { ...rest, ttl });
      }
      const set = keys.sort().join('\n');
      if (firstSet === null) firstSet = set;
      else if (set !== firstSet) consistent = false;
    }
    records[type] = [...union.values()];
  }
  return { records, consistent, answered };
}
