// What a traceroute or mtr asks the resolvers about a hop address besides probing it: its PTR name
// (resolveNames) and its origin AS (asn), both at once, each left out when it does not come in time.
import type { Address } from '../net/address';
import { createTargetCheck } from '../policy/target-policy';
import type { CancelToken } from '../util/cancel';
import { AsnCache, lookUpAsn, type AsnLookupTerms } from './asn-lookup';
import type { Asn } from './asn-origin';
import { lookUpName } from './reverse-name';
import type { ToolDeps } from './tool';

export interface HopDetails {
  name?: string;
  asn?: Asn;
}

export type DetailLookup = (address: Address) => Promise<HopDetails>;

export interface DetailRequest {
  resolveNames: boolean;
  asn: boolean;
  timeoutMs: number;
}

// A tool's way to the details, made once when it opens: the worker's ASN cache (its own when the deps
// bring none) and the ASN policy, the target policy with NETTOOLS_ASN_PRIVATE_HOPS for its private switch.
export function detailSource(deps: ToolDeps): (request: DetailRequest, cancel: CancelToken) => DetailLookup | null {
  const client = 'upstream' in deps.dns ? deps.dns.upstream : null;
  if (client === null) return () => null;
  const { config } = deps;
  const zones = { v4: config.asnZoneV4, v6: config.asnZoneV6 };
  const terms: AsnLookupTerms = { client, cache: deps.asnCache ?? new AsnCache(), zones, asked: createTargetCheck({ allowPrivateTargets: config.asnPrivateHops }) };
  return (request, cancel) => {
    if (!request.resolveNames && !request.asn) return null;
    const opts = { client, resolvers: config.resolvers, timeoutMs: request.timeoutMs, cancel };
    return async (address) => {
      const [name, asn] = await Promise.all([
        request.resolveNames ? lookUpName(client, address, opts).catch(() => null) : null,
        request.asn ? lookUpAsn(terms, address, opts).catch(() => null) : null,
      ]);
      return { ...(name === null ? {} : { name }), ...(asn === null ? {} : { asn }) };
    };
  };
}
