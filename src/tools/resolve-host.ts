// Turns the request's host into one address to probe (ping, traceroute), through the configured resolvers only, with the
// service's own DNS engine: never the system resolver, which is not ours to use.
import type { Address } from '../net/address';
import type { HostTarget } from '../validation/names';
import type { ResolverConfig } from '../config/types';
import type { DnsRecord, QueryEntry, RecordType, ResolverQueries } from '../engines/dns';
import { ADDRESS, isAnswered } from '../engines/dns/types';
import { promised, type Answer } from '../util/answer';
import { upstreamBusy, type HostResolverReport, type ToolFailure } from './outcome';
import { saidBy, typeOutcome, upstreamFailureCode, whatEachSaid } from './resolver-verdict';
import type { Upstream } from './upstream';
import { CancelSource, type CancelToken } from '../util/cancel';

export interface ResolvedHost {
  address: Address; // what policy, budget and engine take, as it is: nobody parses it again
  shown: string; // the address as the response shows it: a literal as the caller spelled it (bare, lowercase)
  literal: boolean; // the host was an IP literal: nothing was asked of any resolver
}

export type ResolveOutcome = { ok: true; host: ResolvedHost } | { ok: false; failure: ToolFailure };

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
type Pick<T> = (record: DnsRecord) => T | undefined;

// What a race of the resolvers came to: the first value picked, or what each one said instead.
export type Race<T> = { found: T } | { unanswered: Heard[] };
interface Heard {
  resolver: ResolverConfig;
  entry: QueryEntry | undefined;
}

// Asks every resolver at once and takes the first answer `pick` finds a value in; a silent resolver
// then costs nothing while another answers. The rest are cancelled.
export function firstAnswer<T>(client: Upstream, name: string, type: RecordType, opts: ResolveOptions, pick: Pick<T>): Promise<Race<T> | Busy> {
  const timeoutMs = opts.timeoutMs ?? 2000;
  // Every resolver's query is reserved before any is sent: the question is asked of all or of none.
  // A budget in this process answers at once, and the queries then start from its callback: a ping of
  // the same name a moment later joins them instead of reserving them again.
  // A throw in the budget's answer (a bug) rejects: the request's fault, never the store's.
  return promised((done: Answer<Race<T> | Busy>) =>
    client.admit({ domain: name, types: [type], resolvers: [...opts.resolvers], timeoutMs }, (admitted) => {
      try {
        if (admitted instanceof Error) return done(admitted);
        if (!admitted.ok) return done({ busy: { resolver: admitted.resolver, retryAfterSeconds: admitted.retryAfterSeconds } });
        race(client, { name, type, timeoutMs, pick }, admitted.fresh, opts).then(done, (err: unknown) => done(asError(err)));
      } catch (err) {
        done(asError(err));
      }
    }),
  );
}

// The admitted queries, one per resolver; the first value picked wins. The engine settles every query
// (a failure is an entry), so a throw from a query, or while an answer is read, is a bug: it fails the
// race, the request's 500, rather than leave the request waiting for ever.
async function race<T>(client: Upstream, q: { name: string; type: RecordType; timeoutMs: number; pick: Pick<T> }, fresh: Fresh, opts: ResolveOptions): Promise<Race<T>> {
  const { name, type, timeoutMs, pick } = q;
  const race = new CancelSource();
  const stopListening = opts.cancel?.onAbort(() => race.abort());
  try {
    return await promised((done: Answer<Race<T>>) => {
      const fault = (err: unknown): void => done(asError(err));
      const heard: Heard[] = opts.resolvers.map((resolver) => ({ resolver, entry: undefined }));
      let left = opts.resolvers.length;
      opts.resolvers.forEach((resolver, i) => {
        const settled = (results: ResolverQueries[]): void => {
          try {
            const entry = results[0]?.queries[type];
            (heard[i] as Heard).entry = entry;
            const first = isAnswered(entry) ? entry.answers[0] : undefined;
            const value = first === undefined ? undefined : pick(first);
            if (value !== undefined) done({ found: value });
            else if (--left === 0) done({ unanswered: heard });
          } catch (err) {
            fault(err);
          }
        };
        try {
          client.query({ domain: name, types: [type], resolvers: [resolver], timeoutMs }, fresh, settled, race);
        } catch (err) {
          fault(err);
        }
      });
    });
  } finally {
    race.abort();
    stopListening?.();
  }
}

export async function resolveHost(host: HostTarget, options: ResolveOptions): Promise<ResolveOutcome> {
  if (host.kind !== 'name') return { ok: true, host: literalHost(host) };
  const name = host.value;
  if (options.resolvers.length === 0) return unresolved({ code: 'engine-unavailable', detail: 'no resolvers are configured to resolve host names' });
  if (options.client === null) return unresolved({ code: 'engine-unavailable', detail: 'the DNS engine is not available on this server to resolve host names' });
  // Without a wanted family: A first, then AAAA.
  const types: Array<'A' | 'AAAA'> = options.ipVersion ? [options.ipVersion === 4 ? 'A' : 'AAAA'] : ['A', 'AAAA'];
  let failedType: Heard[] | null = null;
  for (const type of types) {
    if (options.cancel?.aborted) break;
    const family = type === 'A' ? 4 : 6;
    const raced = await firstAnswer(options.client, name, type, options, (a) => (ADDRESS in a && a[ADDRESS].family === family ? a[ADDRESS] : undefined));
    if ('busy' in raced) return unresolved(upstreamBusy(raced.busy));
    if ('found' in raced) return { ok: true, host: { address: raced.found, shown: raced.found.text, literal: false } };
    const outcome = typeOutcome(raced.unanswered.map((h) => h.entry));
    // NXDOMAIN is about the name, whatever the type: no other type can exist.
    if (outcome === 'nxdomain') return unresolved({ code: 'host-not-found', detail: `${name} does not exist (NXDOMAIN)`, dns: 'nxdomain' });
    if (outcome === 'upstream-failed') failedType = raced.unanswered;
  }
  // A type nobody answered may hold the address: that is the resolvers' failure, not the name's.
  if (failedType !== null) return unresolved(noResolverAnswered(name, failedType));
  const wanted = options.ipVersion ? (options.ipVersion === 4 ? 'A' : 'AAAA') : 'A or AAAA';
  return unresolved({ code: 'host-not-found', detail: `${name} has no ${wanted} record`, dns: 'no-data' });
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

function unresolved(failure: ToolFailure): ResolveOutcome {
  return { ok: false, failure };
}

function noResolverAnswered(name: string, heard: Heard[]): ToolFailure {
  const resolvers: HostResolverReport[] = heard.map(({ resolver, entry }) => ({ id: resolver.id, address: resolver.address, ...reportOf(entry) }));
  const code = upstreamFailureCode(heard.map((h) => h.entry));
  const said = whatEachSaid(heard.map(({ resolver, entry }) => ({ id: resolver.id, said: saidBy(entry) })));
  return { code, detail: `no resolver answered for ${name}: ${said}`, resolvers };
}

function reportOf(entry: QueryEntry | undefined): { rcode: string } | { error: string } {
  if (entry === undefined) return { error: 'cancelled' };
  return isAnswered(entry) ? { rcode: entry.rcode } : { error: entry.error };
}
