// An address's name (PTR), asked of the configured resolvers through the one Upstream, so every query is
// coalesced and charged to each resolver's budget like any other; never the system resolver.
import type { Address } from '../net/address';
import { reverseDomain } from '../net/reverse-name';
import { firstAnswer, type ResolveOptions } from './resolve-host';
import type { Upstream } from './upstream';

// The first name any resolver gives, without its final dot; null when none answers in time, the budget
// of a resolver cannot take the question (a name is a nicety, never worth a refusal), or the address
// has no reverse name.
export async function lookUpName(client: Upstream, address: Address, opts: ResolveOptions): Promise<string | null> {
  const domain = reverseDomain(address);
  if (domain === null || opts.resolvers.length === 0) return null;
  const raced = await firstAnswer(client, domain, 'PTR', opts, (a) => ('name' in a ? a.name : undefined));
  return 'found' in raced ? raced.found.replace(/\.$/, '') : null;
}
