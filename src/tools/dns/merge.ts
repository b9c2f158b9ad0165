import type { Answer, CnameLink, QueryEntry, RecordType, ResolverQueries } from '../../engines/dns';
import { isAnswered } from '../../engines/dns';

export type MergedRecords = Partial<Record<RecordType | 'CNAME', Array<Answer | CnameLink>>>;

// Identity of a record for de-duplication and comparison: its data, never its TTL; names compared case-insensitively.
function keyOf(type: RecordType, a: Answer): string {
  if (type === 'MX' && 'exchange' in a) return `${a.priority} ${a.exchange.toLowerCase()}`;
  if (type === 'TXT' && 'parts' in a) return JSON.stringify(a.parts);
  return 'address' in a ? a.address.toLowerCase() : JSON.stringify(a);
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
    const union = new Union<Answer>();
    for (const { queries } of results) {
      const entry = queries[type];
      if (!isAnswered(entry)) continue;
      for (const answer of entry.answers) union.add(keyOf(type, answer), answer);
      for (const link of entry.cnames ?? []) cnames.add(cnameKey(link), link);
    }
    records[type] = union.values();
  }
  if (cnames.size > 0) records.CNAME = cnames.values();
  return records;
}

// "Answered" for consistency means the resolver made a statement about the data: NOERROR with data,
// NOERROR without data, or NXDOMAIN (an empty set, like no data). SERVFAIL, REFUSED and the other
// rcodes, timeouts and transport errors say nothing about the zone, so they neither break nor prove
// consistency. NXDOMAIN counts because "the name does not exist here, but has records there" is exactly
// the disagreement (stale negative cache, hijacking, propagation) this flag exists to show.
function statesData(entry: QueryEntry | undefined): entry is QueryEntry & { answers: Answer[] } {
  return isAnswered(entry) && (entry.rcode === 'NOERROR' || entry.rcode === 'NXDOMAIN');
}

// Every resolver's set of records for a type must be the same set: order, repeats and letter case aside.
// Compared as sets of keys, not as sorted joined lists: this runs for every type of every dns request.
export function isConsistent(results: ResolverQueries[], types: RecordType[]): boolean {
  for (const type of types) {
    let reference: Set<string> | undefined;
    for (const { queries } of results) {
      const entry = queries[type];
      if (!statesData(entry)) continue;
      const keys = new Set<string>();
      for (const a of entry.answers) keys.add(keyOf(type, a));
      if (reference === undefined) reference = keys;
      else if (!sameSet(reference, keys)) return false;
    }
  }
  return true;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const k of a) if (!b.has(k)) return false;
  return true;
}

// Any rcode at all is an answer here: the 504 is for "nobody said anything", not "nobody had data".
export function anyAnswered(results: ResolverQueries[]): boolean {
  return results.some(({ queries }) => Object.values(queries).some(isAnswered));
}
