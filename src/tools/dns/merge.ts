import type { DnsRecord, CnameLink, QueryEntry, RecordType, ResolverQueries } from '../../engines/dns';
import { ADDRESS, isAnswered } from '../../engines/dns/types';
import { statesData, typeOutcome, type TypeOutcome } from '../resolver-verdict';

export type MergedRecords = Partial<Record<RecordType | 'CNAME', Array<DnsRecord | CnameLink>>>;

// Identity of a record for de-duplication and comparison: its data, never its TTL; names compared
// case-insensitively. An address is its bytes: the text was made from them, one text for each value
// (src/net/ip.ts formatIp), so it is their key as it is, with no case to fold.
function keyOf(type: RecordType, a: DnsRecord): string {
  if (type === 'MX' && 'exchange' in a) return `${a.priority} ${a.exchange.toLowerCase()}`;
  if (type === 'TXT' && 'parts' in a) return JSON.stringify(a.parts);
  return ADDRESS in a ? a[ADDRESS].text : fieldsKey(a);
}

// Fields that hold names, compared case-insensitively as DNS compares them.
const NAME_FIELDS: ReadonlySet<string> = new Set(['name', 'target', 'mname', 'rname', 'replacement']);

// Every field but the TTL, in the record's own order (the engine writes each type's fields in one order).
function fieldsKey(a: DnsRecord): string {
  const parts: unknown[] = [];
  for (const [field, value] of Object.entries(a)) {
    if (field === 'ttl') continue;
    parts.push(NAME_FIELDS.has(field) && typeof value === 'string' ? value.toLowerCase() : value);
  }
  return JSON.stringify(parts);
}

function cnameKey(link: CnameLink): string {
  return `${link.name.toLowerCase()} ${link.target.toLowerCase()}`;
}

// Union keyed by data; the TTL kept is the smallest any resolver reported.
class Union<T extends { ttl: number }> {
  private readonly byKey = new Map<string, T>();

  add(key: string, item: T): void {
    const seen = this.byKey.get(key);
    if (seen === undefined) this.byKey.set(key, { ...item });
    else if (item.ttl < seen.ttl) seen.ttl = item.ttl;
  }

  get size(): number {
    return this.byKey.size;
  }

  values(): T[] {
    return [...this.byKey.values()];
  }
}

export function mergeRecords(results: ResolverQueries[], types: RecordType[]): MergedRecords {
  const records: MergedRecords = {};
  const cnames = new Union<CnameLink>();
  for (const type of types) {
    const union = new Union<DnsRecord>();
    for (const { queries } of results) {
      const entry = queries[type];
      if (!isAnswered(entry)) continue;
      for (const answer of entry.answers) union.add(keyOf(type, answer), answer);
      for (const link of entry.cnames ?? []) cnames.add(cnameKey(link), link);
    }
    records[type] = union.values();
  }
  // CNAMEs asked for and CNAMEs followed are one list: both are alias links, in one shape.
  if (types.includes('CNAME')) for (const link of records.CNAME as CnameLink[]) cnames.add(cnameKey(link), link);
  if (cnames.size > 0 || types.includes('CNAME')) records.CNAME = cnames.values();
  return records;
}

// Consistency compares only answers (NOERROR, NXDOMAIN: see statesData); SERVFAIL, REFUSED, timeouts and
// the like say nothing about the zone, so they neither break nor prove it. NXDOMAIN stands apart from an
// empty NOERROR: "the name does not exist here" against "it exists, without this type there" is exactly
// the disagreement (stale negative cache, hijacking, propagation) this flag exists to show.
// Compared as sets of keys, not as sorted joined lists: this runs for every type of every dns request.
export function isConsistent(results: ResolverQueries[], types: RecordType[]): boolean {
  for (const type of types) {
    let reference: { rcode: string; keys: Set<string> } | undefined;
    for (const { queries } of results) {
      const entry = queries[type];
      if (!statesData(entry)) continue;
      const keys = new Set<string>();
      for (const a of entry.answers) keys.add(keyOf(type, a));
      if (reference === undefined) reference = { rcode: entry.rcode, keys };
      else if (reference.rcode !== entry.rcode || !sameSet(reference.keys, keys)) return false;
    }
  }
  return true;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const k of a) if (!b.has(k)) return false;
  return true;
}

// Per requested type, what the resolvers that answered it say (see typeOutcome).
export function outcomesOf(results: ResolverQueries[], types: RecordType[]): Partial<Record<RecordType, TypeOutcome>> {
  const outcomes: Partial<Record<RecordType, TypeOutcome>> = {};
  // One list of entries for every type, refilled: a list per type cost a measurable share of a dns request.
  const entries: Array<QueryEntry | undefined> = new Array(results.length);
  for (const type of types) {
    for (let i = 0; i < results.length; i++) entries[i] = (results[i] as ResolverQueries).queries[type];
    outcomes[type] = typeOutcome(entries);
  }
  return outcomes;
}

// A 200 needs one statement about the zone: a resolver that only said REFUSED or SERVFAIL told nothing.
// Asked type by type, not through Object.values: an array made per resolver, and the first answer
// nearly always settles it.
export function anyAnswered(results: ResolverQueries[], types: RecordType[]): boolean {
  for (const { queries } of results) for (const type of types) if (statesData(queries[type])) return true;
  return false;
}
