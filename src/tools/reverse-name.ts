// An address's name (PTR), asked of the configured resolvers through the one Upstream, so every query is
// coalesced and charged to each resolver's budget like any other; never the system resolver.
import { isIPv4, isIPv6 } from 'node:net';
import { firstAnswer, type ResolveOptions } from './resolve-host';
import type { Upstream } from './upstream';

// The in-addr.arpa / ip6.arpa name of an IP literal (RFC 1035 3.5, RFC 3596 2.5); null for anything else.
export function reverseDomain(address: string): string | null {
  if (isIPv4(address)) return `${address.split('.').reverse().join('.')}.in-addr.arpa`;
  if (!isIPv6(address) || address.includes('%') || address.includes('.')) return null;
  const [head = '', tail = ''] = address.split('::');
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const left = groups(head);
  const right = address.includes('::') ? groups(tail) : [];
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const nibbles = all.map((g) => g.padStart(4, '0')).join('');
  return `${[...nibbles].reverse().join('.')}.ip6.arpa`;
}

// The first name any resolver gives, without its final dot; null when none answers in time, the budget
// of a resolver cannot take the question (a name is a nicety, never worth a refusal), or the address
// has no reverse name.
export async function lookUpName(client: Upstream, address: string, opts: ResolveOptions): Promise<string | null> {
  const domain = reverseDomain(address);
  if (domain === null || opts.resolvers.length === 0) return null;
  const raced = await firstAnswer(client, domain, 'PTR', opts, (a) => ('name' in a ? a.name : undefined));
  return 'found' in raced ? raced.found.replace(/\.$/, '') : null;
}
