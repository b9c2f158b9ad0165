// Turns the request's host into one address to probe (ping, traceroute), through the configured resolvers only, with the
// service's own DNS engine: never the system resolver, which is not ours to use.
import { addressOf, type Address } from '../net/address';
import { parseIp } from '../net/ip';
import type { HostTarget } from '../validation/names';
import type { ResolverConfig } from '../config/types';
import { isAnswered, type Answer, type RecordType } from '../engines/dns';
import type { Upstream } from './upstream';
import { CancelSource, type CancelToken } from '../util/cancel';

export interface ResolvedHost {
  address: Address; // what policy, budget and engine take, as it is: nobody parses it again
  shown: string; // the address as the response shows it: a literal as the caller spelled it (bare, lowercase)
  literal: boolean; // the host was an IP literal: nothing was asked of any resolver
}

export type ResolveOutcome =
  | { ok: true; host: ResolvedHost }
  | { ok: false; reason: string }
  // A resolver's query budget is spent: nothing was asked.
  | { ok: false; busy: { resolver: string; retryAfterSeconds: number } };

// An IP literal decides its family itself: its value came with the parsed host (IPv4-mapped IPv6
// written dotted is already the IPv4 address it carries).
function literalHost(host: HostTarget & { address: Address }): ResolvedHost {
  const { address } = host;
  return { address, shown: address.family === 6 ? host.value : address.text, literal: true };
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

export async function resolveHost(host: HostTarget, options: ResolveOptions): Promise<ResolveOutcome> {
  if (host.kind !== 'name') return { ok: true, host: literalHost(host) };
  const name = host.value;
  if (options.resolvers.length === 0) return { ok: false, reason: 'no resolvers are configured' };
  if (options.client === null) return { ok: false, reason: 'the DNS engine is not available on this server to resolve host names' };
  // Without a wanted family: A first, then AAAA.
  const families: (4 | 6)[] = options.ipVersion ? [options.ipVersion] : [4, 6];
  for (const family of families) {
    if (options.cancel?.aborted) break;
    const text = await firstAnswer(options.client, name, family === 4 ? 'A' : 'AAAA', options, (a) => ('address' in a ? a.address : undefined));
    if (text !== null && typeof text === 'object') return { ok: false, ...text };
    // The resolver's answer, made a value once here (an AAAA stays IPv6, mapped or not).
    const ip = text === null ? null : parseIp(text);
    if (ip !== null && ip.family === family) {
      const address = addressOf(family, ip.bytes);
      return { ok: true, host: { address, shown: address.text, literal: false } };
    }
  }
  const wanted = options.ipVersion ? (options.ipVersion === 4 ? 'A' : 'AAAA') : 'A or AAAA';
  return { ok: false, reason: `${name} has no ${wanted} record` };
}
