import type { ResolverQueries, RecordType } from '../../engines/dns';
import { isAnswered } from '../../engines/dns/types';
import type { MergedRecords } from './merge';

// A resolver validates when it set AD on any answer of the request (a resolver that never does, such as
// an authoritative server asked directly, says nothing about validation). A type's records are
// `validated` when at least one resolver validates and every one that does set AD on its answer of that
// type: a bogus answer (SERVFAIL, no AD) from one of them takes the mark away.
export function markValidated(records: MergedRecords, results: ResolverQueries[], types: RecordType[]): void {
  const validating = results.filter(({ queries }) => Object.values(queries).some((e) => isAnswered(e) && e.flags.includes('ad')));
  if (validating.length === 0) return;
  for (const type of types) {
    const all = validating.every(({ queries }) => {
      const entry = queries[type];
      return isAnswered(entry) && entry.flags.includes('ad');
    });
    if (!all) continue;
    for (const record of records[type] ?? []) (record as { validated?: true }).validated = true;
  }
}
