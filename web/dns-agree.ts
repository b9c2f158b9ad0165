// Whether resolvers agree on a type, by the server's own rule (src/tools/dns/merge.ts): only NOERROR and
// NXDOMAIN state what the zone holds, and NXDOMAIN ("no such name") differs from NOERROR without records
// ("the name exists"); record sets are compared by their data, never their TTL, names in any letter case.
// SERVFAIL, REFUSED, timeouts and the like neither agree nor differ.

import type { DnsResolverResult, DnsResult } from './client/index.js';

// One resolver's answer to one type, or why none came.
export type Query = DnsResolverResult['queries'][string];
type Records = DnsResult['records'];
// A record as an answer holds it: shaped by its type, as in the summary's `records` (the API says so;
// the generated type of `answers` cannot, as it does not know the type asked).
type DnsRecord = NonNullable<Records[keyof Records]>[number];

export type Agreement = 'waiting' | 'agree' | 'differ' | 'unknown';

export function recordKey(type: string, answer: unknown): string {
  const record = answer as DnsRecord;
  if (type === 'MX' && 'exchange' in record) return `${record.priority} ${record.exchange.toLowerCase()}`;
  if (type === 'TXT' && 'parts' in record) return JSON.stringify(record.parts);
  if ('address' in record) return record.address.toLowerCase();
  return JSON.stringify(record);
}

function statedSet(type: string, query: Query): Set<string> | null {
  if (!('rcode' in query) || (query.rcode !== 'NOERROR' && query.rcode !== 'NXDOMAIN')) return null;
  // A key no record can have (none starts with a space): NXDOMAIN is a set of its own.
  if (query.rcode === 'NXDOMAIN') return new Set([' NXDOMAIN']);
  return new Set(query.answers.map((r) => recordKey(type, r)));
}

// `queries` holds the answers in so far, of `expected` resolvers in all.
export function agreement(type: string, queries: readonly Query[], expected: number): Agreement {
  const sets = queries.map((q) => statedSet(type, q)).filter((s): s is Set<string> => s !== null);
  const first = sets[0];
  if (first !== undefined && sets.some((s) => s.size !== first.size || [...s].some((k) => !first.has(k)))) return 'differ';
  if (queries.length < expected) return 'waiting';
  return sets.length >= 2 ? 'agree' : 'unknown';
}
