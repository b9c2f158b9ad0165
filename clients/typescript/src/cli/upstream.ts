import type { Problem } from '../types.js';
import { oneLine } from './terminal.js';

// How a problem says the resolvers behind the server failed, read loosely: its `resolvers` member is a
// dns 200's (`queries` per type) or, for a host name to ping or trace, `{ id, address, rcode?, error? }`.
type Outcome = { rcode?: unknown; error?: unknown };
type Said = { id?: unknown; address?: unknown; queries?: unknown } & Outcome;

const outcome = (o: Outcome | null | undefined) => oneLine(String(o?.rcode ?? o?.error ?? 'no answer'));

// `a (127.0.0.1): A SERVFAIL, TXT timeout; b (127.0.0.2): REFUSED`.
export function whatEachSaid(resolvers: readonly Said[]): string {
  return resolvers
    .map((r) => {
      const queries = typeof r.queries === 'object' && r.queries !== null ? Object.entries(r.queries as Record<string, Outcome | null>) : null;
      const said = queries === null ? outcome(r) : queries.map(([type, q]) => `${oneLine(type)} ${outcome(q)}`).join(', ');
      return `${oneLine(String(r.id ?? '?'))} (${oneLine(String(r.address ?? '?'))}): ${said}`;
    })
    .join('; ');
}

// The resolvers gave no answer (exit 5): what to say, or null for any other problem.
export function upstreamFailure(p: Problem): string | null {
  const code: string = p.code;
  if (code !== 'upstream-failed' && code !== 'upstream-timeout') return null;
  const resolvers = (p as { resolvers?: unknown }).resolvers;
  const said = Array.isArray(resolvers) && resolvers.length > 0 ? whatEachSaid(resolvers as Said[]) : oneLine(p.detail);
  return `no resolver answered: ${said}`;
}

// A host name that does not resolve is a measured failure (exit 1), told apart by the problem's `dns`.
export function hostNotFound(p: Problem, target: string | undefined): string | null {
  if (p.code !== 'host-not-found') return null;
  const host = oneLine(target ?? 'the host');
  const dns = (p as { dns?: unknown }).dns;
  if (dns === 'nxdomain') return `${host}: no such domain (NXDOMAIN)`;
  if (dns === 'no-data') return `${host}: no address record of the wanted family (no data)`;
  return `${host}: ${oneLine(p.detail)}`;
}
