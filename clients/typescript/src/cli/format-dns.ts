import type { DnsEvent, DnsResolverResult, DnsResult } from '../types.js';
import { EXIT } from './exit-codes.js';
import { recordData, recordMatches, type ApiRecord } from './records.js';
import { oneLine } from './terminal.js';
import { whatEachSaid } from './upstream.js';

type Query = DnsResolverResult['queries'][string];
const answered = (q: Query | undefined): q is Extract<Query, { rcode: string }> => q !== undefined && 'rcode' in q;

function queryText(type: string, q: Query): string {
  return answered(q) ? `${oneLine(type)} ${oneLine(q.rcode)} ${q.rttMs.toFixed(1)} ms${q.transport === 'tcp' || q.transport === 'tls' ? ` ${q.transport}` : ''}` : `${oneLine(type)} ${oneLine(q.error)}${q.detail === undefined ? '' : ` (${oneLine(q.detail)})`}`;
}

// One resolver's answer to one type as it lands (--watch): its outcome, then its records as dig writes them.
export function answerLines(answer: Extract<DnsEvent, { event: 'answer' }>['data'], domain: string): string[] {
  const { query } = answer;
  const lines = [`;; ${oneLine(answer.resolver)} (${oneLine(answer.address)}): ${queryText(answer.type, query)}`];
  if (answered(query)) for (const r of query.answers as ApiRecord[]) lines.push(`${oneLine(domain)}.\t${r.ttl ?? 0}\tIN\t${oneLine(answer.type)}\t${recordData(answer.type, r)}`);
  return lines;
}

// What dig prints, for every asked type at once, then each resolver's own outcome.
export function formatDns(result: DnsResult, server: string): string[] {
  const lines = [`; <<>> nettools dns ${oneLine(result.domain)} <<>> via ${server}`, `;; ${result.resolvers.length} resolver${result.resolvers.length === 1 ? '' : 's'}, answers ${result.consistent ? 'consistent' : 'INCONSISTENT'}`, '', ';; ANSWER SECTION:'];
  const name = `${oneLine(result.domain)}.`;
  for (const [type, records] of Object.entries(result.records)) {
    // A CNAME link names its own owner: the chain from the asked name on.
    for (const r of (records ?? []) as ApiRecord[]) lines.push(`${type === 'CNAME' && typeof r['name'] === 'string' ? `${oneLine(r['name'])}.` : name}\t${r.ttl ?? 0}\tIN\t${oneLine(type)}\t${recordData(type, r)}`);
  }
  lines.push('', ';; RESOLVERS:');
  for (const res of result.resolvers) lines.push(`;; ${oneLine(res.id)} (${oneLine(res.address)}): ${Object.entries(res.queries).map(([t, q]) => queryText(t, q)).join(', ')}`);
  lines.push('', `;; Query time: ${Math.round(result.durationMs)} msec`);
  return lines;
}

export interface DnsChecks {
  expect: readonly string[];
  consistent: boolean;
}

// Each requested type's outcome, when the server says (`records`, `no-data`, `nxdomain`, `upstream-failed`);
// read loosely, so that an older server without it still works.
function outcomesOf(result: DnsResult): Record<string, unknown> | null {
  const outcomes = (result as { outcomes?: unknown }).outcomes;
  return typeof outcomes === 'object' && outcomes !== null ? (outcomes as Record<string, unknown>) : null;
}

// The types no resolver answered, with what each said, or null: such an answer cannot pass or fail a
// check, and asking again later may help (exit 5).
export function dnsUpstreamFailure(result: DnsResult): string | null {
  const failed = Object.entries(outcomesOf(result) ?? {}).filter(([, o]) => o === 'upstream-failed').map(([type]) => type);
  if (failed.length === 0) return null;
  const said = result.resolvers.map((r) => ({ ...r, queries: Object.fromEntries(Object.entries(r.queries).filter(([type]) => failed.includes(type))) }));
  return `no resolver answered ${failed.map(oneLine).join(', ')} for ${oneLine(result.domain)}: ${whatEachSaid(said)}`;
}

// Nothing came back: a name that does not exist, or one without the asked types.
function nothingFound(result: DnsResult): string {
  const domain = oneLine(result.domain);
  const outcomes = outcomesOf(result);
  if (outcomes === null) return `no record for ${domain}`;
  if (Object.values(outcomes).includes('nxdomain')) return `${domain}: no such domain (NXDOMAIN)`;
  return `no ${Object.keys(outcomes).map(oneLine).join(' or ')} record for ${domain}`;
}

// Why this answer fails a CI check, or null: some record came back, and each --expect TEXT is in every
// resolver's own answers (a propagation gate: one resolver that has it is not enough).
export function dnsFailure(result: DnsResult, checks: DnsChecks): string | null {
  const total = Object.values(result.records).reduce((n, list) => n + (list?.length ?? 0), 0);
  if (total === 0) return nothingFound(result);
  if (checks.consistent && !result.consistent) return `resolvers disagree about ${oneLine(result.domain)}`;
  for (const text of checks.expect) {
    const missing = result.resolvers.filter((res) => !Object.entries(res.queries).some(([type, q]) => answered(q) && (q.answers as ApiRecord[]).some((r) => recordMatches(type, r, text))));
    if (missing.length > 0) return `expected ${JSON.stringify(text)} not in the answer of ${missing.map((m) => oneLine(m.id)).join(', ')}`;
  }
  return null;
}

// The exit status of a dns answer: 5 when some asked type had no resolver answer, else its checks'.
export function dnsVerdict(result: DnsResult, checks: DnsChecks, io: { err(line: string): void }): number {
  const upstream = dnsUpstreamFailure(result);
  if (upstream !== null) return io.err(`nettools: ${upstream}`), EXIT.upstream;
  const failure = dnsFailure(result, checks);
  if (failure === null) return EXIT.ok;
  return io.err(`nettools: ${failure}`), EXIT.failed;
}
