// The origin AS of a hop address, asked as TXT of the configured resolvers through the one Upstream (as
// a PTR name is: coalesced, charged to each resolver's budget) and kept for the answer's TTL in one
// bounded cache per worker, which traceroute and mtr share. An address the ASN policy refuses is never
// asked: with the default policy only public addresses leave the server in a question.
import { LRUCache } from 'lru-cache';
import type { Address } from '../net/address';
import { asnQueryName, covers, parseOriginTxt, type Asn, type AsnZones } from './asn-origin';
import { firstAnswer, type ResolveOptions } from './resolve-host';
import type { TargetCheck } from '../policy/target-policy';
import type { Upstream } from './upstream';

const CACHE_MAX = 10_000;
const TTL_MAX_SECONDS = 86_400; // a zone's long TTL still does not pin an answer for longer than a day

export class AsnCache {
  private readonly entries = new LRUCache<string, Asn>({ max: CACHE_MAX, ttl: TTL_MAX_SECONDS * 1000 });

  get(address: Address): Asn | undefined {
    return this.entries.get(address.text);
  }

  // A TTL of 0 means "do not keep".
  set(address: Address, asn: Asn, ttlSeconds: number): void {
    if (ttlSeconds > 0) this.entries.set(address.text, asn, { ttl: Math.min(ttlSeconds, TTL_MAX_SECONDS) * 1000 });
  }
}

export interface AsnLookupTerms {
  client: Upstream;
  cache: AsnCache;
  zones: AsnZones;
  asked: TargetCheck; // null for an address that may be asked about, the refused range otherwise
}

// The origin AS, or null: a skipped address, no answer in time, NXDOMAIN, a malformed answer or one whose
// prefix does not hold the address, a budget
// that cannot take the question (an AS number is a nicety, never worth a refusal).
export async function lookUpAsn(terms: AsnLookupTerms, address: Address, opts: ResolveOptions): Promise<Asn | null> {
  if (terms.asked(address) !== null) return null;
  const cached = terms.cache.get(address);
  if (cached !== undefined) return cached;
  const name = asnQueryName(address, terms.zones);
  if (name === null || opts.resolvers.length === 0) return null;
  const raced = await firstAnswer(terms.client, name, 'TXT', opts, (a) => {
    const asn = 'parts' in a ? parseOriginTxt(a.value) : null;
    return asn === null || !covers(asn, address) ? undefined : { asn, ttl: a.ttl };
  });
  if (!('found' in raced)) return null;
  terms.cache.set(address, raced.found.asn, raced.found.ttl);
  return raced.found.asn;
}
