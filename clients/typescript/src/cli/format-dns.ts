import type { DnsEvent, DnsResolverResult, DnsResult } from '../types.js';
import { recordData, recordMatches, type ApiRecord } from './records.js';

type Query = DnsResolverResult['queries'][string];
const answered = (q: Query | undefined): q is Extract<Query, { rcode: string }> => q !== undefined && 'rcode' in q;

function queryText(type: string, q: Query): string {
  return answered(q) ? `${type} ${q.rcode} ${q.rttMs.toFixed(1)} ms${q.transport === 'tcp' ? ' tcp' : ''}` : `${type} ${q.error}`;
}

// One resolver's answer to one type as it lands (--watch): its outcome, then its records as dig writes them.
export function answerLines(answer: Extract<DnsEvent, { event: 'answer' }>['data'], domain: string): string[] {
  const { query } = answer;
  const lines = [`;; ${answer.resolver} (${answer.address}): ${queryText(answer.type, query)}`];
  if (answered(query)) for (const r of query.answers as ApiRecord[]) lines.push(`${domain}.\t${r.ttl ?? 0}\tIN\t${answer.type}\t${recordData(answer.type, r)}`);
  return lines;
}

// What dig prints, for every asked type at once, then each resolver's own outcome.
export function formatDns(result: DnsResult, server: string): string[] {
  const lines = [`; <<>> nettools dns ${result.domain} <<>> via ${server}`, `;; ${result.resolvers.length} resolver${result.resolvers.length === 1 ? '' : 's'}, answers ${result.consistent ? 'consistent' : 'INCONSISTENT'}`, '', ';; ANSWER SECTION:'];
  const name = `${result.domain}.`;
  for (const [type, records] of Object.entries(result.records)) {
    for (const r of (records ?? []) as ApiRecord[]) lines.push(`${name}\t${r.ttl ?? 0}\tIN\t${type}\t${recordData(type, r)}`);
  }
  lines.push('', ';; RESOLVERS:');
  for (const res of result.resolvers) lines.push(`;; ${res.id} (${res.address}): ${Object.entries(res.queries).map(([t, q]) => queryText(t, q)).join(', ')}`);
  lines.push('', `;; Query time: ${Math.round(result.durationMs)} msec`);
  return lines;
}

export interface DnsChecks {
  expect: readonly string[];
  consistent: boolean;
}

// Why this answer fails a CI check, or null: some record came back, and each --expect TEXT is in every
// resolver's own answers (a propagation gate: one resolver that has it is not enough).
export function dnsFailure(result: DnsResult, checks: DnsChecks): string | null {
  const total = Object.values(result.records).reduce((n, list) => n + (list?.length ?? 0), 0);
  if (total === 0) return `no record for ${result.domain}`;
  if (checks.consistent && !result.consistent) return `resolvers disagree about ${result.domain}`;
  for (const text of checks.expect) {
    const missing = result.resolvers.filter((res) => !Object.entries(res.queries).some(([type, q]) => answered(q) && (q.answers as ApiRecord[]).some((r) => recordMatches(type, r, text))));
    if (missing.length > 0) return `expected ${JSON.stringify(text)} not in the answer of ${missing.map((m) => m.id).join(', ')}`;
  }
  return null;
}
