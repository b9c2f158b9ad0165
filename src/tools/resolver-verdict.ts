// What resolvers' answers say about a name, shared by the dns tool and host resolution (ping,
// traceroute): an answer is a statement about the zone, a failure is not, and "nobody answered" is never
// to be read as "no such record".
import { isAnswered, type DnsRecord, type QueryEntry } from '../engines/dns/types';

// NOERROR and NXDOMAIN state what the zone holds. REFUSED, SERVFAIL, NOTIMP, FORMERR and the rest say only
// that this resolver would not or could not tell; a timeout or a garbled reply says nothing at all.
export function statesData(entry: QueryEntry | undefined): entry is QueryEntry & { rcode: string; answers: DnsRecord[] } {
  return isAnswered(entry) && (entry.rcode === 'NOERROR' || entry.rcode === 'NXDOMAIN');
}

// What the answers to one type say, over the resolvers that answered it.
export type TypeOutcome = 'records' | 'no-data' | 'nxdomain' | 'upstream-failed';

export const TYPE_OUTCOMES: readonly TypeOutcome[] = ['records', 'no-data', 'nxdomain', 'upstream-failed'];

// One pass, no arrays made: this runs for every type of every dns request.
export function typeOutcome(entries: ReadonlyArray<QueryEntry | undefined>): TypeOutcome {
  let answered = false;
  let everyNxdomain = true;
  for (const entry of entries) {
    if (!statesData(entry)) continue;
    if (entry.answers.length > 0) return 'records';
    answered = true;
    if (entry.rcode !== 'NXDOMAIN') everyNxdomain = false;
  }
  if (!answered) return 'upstream-failed';
  return everyNxdomain ? 'nxdomain' : 'no-data';
}

// Why no resolver answered: `upstream-timeout` only when every failure was a timeout (the resolvers may
// just be slow), `upstream-failed` when one of them said something else (REFUSED, SERVFAIL, a broken reply).
export type UpstreamFailureCode = 'upstream-failed' | 'upstream-timeout';

export function upstreamFailureCode(failures: ReadonlyArray<QueryEntry | undefined>): UpstreamFailureCode {
  return failures.every((e) => e !== undefined && !isAnswered(e) && e.error === 'timeout') ? 'upstream-timeout' : 'upstream-failed';
}

// One word for what a resolver said: its rcode, or the error that took the place of an answer.
export function saidBy(entry: QueryEntry | undefined): string {
  if (entry === undefined) return 'nothing';
  return isAnswered(entry) ? entry.rcode : entry.error;
}

// "a REFUSED, b timeout": each resolver and what it said, for a problem's detail.
export function whatEachSaid(said: ReadonlyArray<{ id: string; said: string }>): string {
  return said.map((s) => `${s.id} ${s.said}`).join(', ');
}
