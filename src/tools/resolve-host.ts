// Turns the request's host into one address to probe (ping, traceroute), through the configured resolvers only, with the
// service's own DNS engine: never the system resolver, which is not ours to use.
import { isIPv4, isIPv6 } from 'node:net';
import type { ResolverConfig } from '../config/types';
import { isAnswered, type Answer, type RecordType } from '../engines/dns';
import type { Upstream } from './upstream';
import { CancelSource, type CancelToken } from '../util/cancel';

export interface ResolvedHost {
  address: string;
  family: 4 | 6;
  literal: boolean; // the host was an IP literal: nothing was asked of any resolver
}

export type ResolveOutcome =
  | { ok: true; host: ResolvedHost }
  | { ok: false; reason: string }
  // A resolver's query budget is spent: nothing was asked.
  | { ok: false; busy: { resolver: string; retryAfterSeconds: number } };

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
  client: Upstream | null; // null: the DNS engine could not start
  resolvers: readonly ResolverConfig[];
  ipVersion?: 4 | 6;
  timeoutMs?: number;
  cancel?: CancelToken;
}

export type Busy = { busy: { resolver: string; retryAfterSeconds: number } };
type Fresh = Parameters<Upstream['query']>[1];
type Pick = (answer: Answer) => string | undefined;

// Asks every resolver at once and takes the first answer `pick` finds a value in; a silent resolver
// then costs nothing while another answers. The rest are cancelled.
export function firstAnswer(client: Upstream, name: string, type: RecordType, opts: ResolveOptions, pick: Pick): Promise<string | null | Busy> {
  const timeoutMs = opts.timeoutMs ?? 2000;
  // Every resolver's query is reserved before any is sent: the question is asked of all or of none.
  // A budget in this process answers at once, and the queries then start from its callback: a ping of
  // the same name a moment later joins them instead of reserving them again.
  return new Promise((resolve, reject) =>
    client.admit({ domain: name, types: [type], resolvers: [...opts.resolvers], timeoutMs }, (admitted) => {
      if (admitted instanceof Error) return reject(admitted);
      if (!admitted.ok) return resolve({ busy: { resolver: admitted.resolver, retryAfterSeconds: admitted.retryAfterSeconds } });
      race(client, { name, type, timeoutMs, pick }, admitted.fresh, opts).then(resolve, reject);
    }),
  );
}

// The admitted queries, one per resolver; the first value picked wins.
async function race(client: Upstream, q: { name: string; type: RecordType; timeoutMs: number; pick: Pick }, fresh: Fresh, opts: ResolveOptions): Promise<string | null> {
  const { name, type, timeoutMs, pick } = q;
  const race = new CancelSource();
  const stopListening = opts.cancel?.onAbort(() => race.abort());
  try {
    return await new Promise<string | null>((resolve) => {
      let left = opts.resolvers.length;
      for (const resolver of opts.resolvers) {
        void client.query({ domain: name, types: [type], resolvers: [resolver], timeoutMs }, fresh, race).then(([result]) => {
          const entry = result?.queries[type];
          const first = isAnswered(entry) ? entry.answers[0] : undefined;
          const value = first === undefined ? undefined : pick(first);
          if (value !== undefined) resolve(value);
          else if (--left === 0) resolve(null);
        });
      }
    });
  } finally {
    race.abort();
    stopListening?.();
  }
}

export async function resolveHost(host: string, options: ResolveOptions): Promise<ResolveOutcome> {
  const literal = parseLiteral(host);
  if (literal !== null) return { ok: true, host: literal };
  if (options.resolvers.length === 0) return { ok: false, reason: 'no resolvers are configured' };
  if (options.client === null) return { ok: false, reason: 'the DNS engine is not available on this server to resolve host names' };
  // Without a wanted family: A first, then AAAA.
  const families: (4 | 6)[] = options.ipVersion ? [options.ipVersion] : [4, 6];
  for (const family of families) {
    if (options.cancel?.aborted) break;
    const address = await firstAnswer(options.client, host, family === 4 ? 'A' : 'AAAA', options, (a) => ('address' in a ? a.address : undefined));
    if (address !== null && typeof address === 'object') return { ok: false, ...address };
    if (address !== null) return { ok: true, host: { address, family, literal: false } };
  }
  const wanted = options.ipVersion ? (options.ipVersion === 4 ? 'A' : 'AAAA') : 'A or AAAA';
  return { ok: false, reason: `${host} has no ${wanted} record` };
}
