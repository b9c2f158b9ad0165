// Turns the request's host into one address to ping, through the configured resolvers only.
// Node's Resolver after setServers, never dns.lookup: the system resolver is not ours to use.
import { Resolver } from 'node:dns/promises';
import { isIPv4, isIPv6 } from 'node:net';
import type { ResolverConfig } from '../../config/types';

export interface ResolvedHost {
  address: string;
  family: 4 | 6;
  literal: boolean; // the host was an IP literal: nothing was asked of any resolver
}

export type ResolveOutcome = { ok: true; host: ResolvedHost } | { ok: false; reason: string };

export function resolverServers(resolvers: readonly ResolverConfig[]): string[] {
  return resolvers.map((r) => (r.family === 6 ? `[${r.address}]:${r.port}` : `${r.address}:${r.port}`));
}

const MAPPED_V4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

// An IP literal decides its family itself; IPv4-mapped IPv6 is pinged as the IPv4 address it carries.
export function parseLiteral(host: string): ResolvedHost | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIPv4(bare)) return { address: bare, family: 4, literal: true };
  if (isIPv6(bare)) {
    const mapped = MAPPED_V4.exec(bare);
    if (mapped && isIPv4(mapped[1]!)) return { address: mapped[1]!, family: 4, literal: true };
    return { address: bare.toLowerCase(), family: 6, literal: true };
  }
  return null;
}

export interface ResolveOptions {
  resolvers: readonly ResolverConfig[];
  ipVersion?: 4 | 6;
  timeoutMs?: number;
  signal?: AbortSignal;
}

async function first(resolver: Resolver, family: 4 | 6, name: string): Promise<string | null> {
  try {
    const found = family === 4 ? await resolver.resolve4(name) : await resolver.resolve6(name);
    return found[0] ?? null;
  } catch {
    // NXDOMAIN, NODATA, SERVFAIL or timeout alike: no address of this family came back.
    return null;
  }
}

export async function resolveHost(host: string, options: ResolveOptions): Promise<ResolveOutcome> {
  const literal = parseLiteral(host);
  if (literal !== null) return { ok: true, host: literal };
  if (options.resolvers.length === 0) return { ok: false, reason: 'no resolvers are configured' };
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: 1 });
  resolver.setServers(resolverServers(options.resolvers));
  const onAbort = (): void => resolver.cancel();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    // Without a wanted family: A first, then AAAA.
    const families: (4 | 6)[] = options.ipVersion ? [options.ipVersion] : [4, 6];
    for (const family of families) {
      if (options.signal?.aborted) break;
      const address = await first(resolver, family, host);
      if (address !== null) return { ok: true, host: { address, family, literal: false } };
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  const wanted = options.ipVersion ? (options.ipVersion === 4 ? 'A' : 'AAAA') : 'A or AAAA';
  return { ok: false, reason: `${host} has no ${wanted} record` };
}
