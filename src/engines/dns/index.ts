import type { ResolverConfig } from '../../config/types';
import { errorCode, nativeEngineClass, type NativeDnsEngine } from './native';
import { entryProgress } from './progress';
import { unpackOutcomes } from './unpack';
import type { EngineCounters, QueryEntry, RecordType, ResolverQueries, ResolverQuery, SettledEntry } from './types';
import { LinkedList, type ListNode } from '../../util/linked-list';
import { promised, type Answer } from '../../util/answer';

// The types of ./types here too; its values are imported from it. A value re-exported here would compile to
// a getter that turns this module's exports into a dictionary (test/architecture/module-exports.test.ts):
// `export *` did, and every read of one of them cost a dictionary lookup and a megamorphic load.
export type * from './types';

export interface ResolverClient {
  // Asks every resolver for every type at once; resolves when each query has an answer, an error or timed out.
  // `onEntry`, if given, gets each (resolver, type) pair's entry as it settles, before the promise resolves
  // (see start).
  query(request: ResolverQuery, signal?: AbortSignal, onEntry?: (settled: SettledEntry) => void): Promise<ResolverQueries[]>;
  // The same without a promise or a signal: `done` is called once, with the outcomes; the function
  // returned cancels (what is unsettled then comes back cancelled), and does nothing once `done` ran.
  // `onEntry`, if given, is told each pair's entry once, in the order they settle, all before `done`
  // (pairs that could not start at all just before it); nothing more once cancelled. Without it the
  // engine makes no call per query.
  start(request: ResolverQuery, done: (results: ResolverQueries[]) => void, onEntry?: (settled: SettledEntry) => void): () => void;
  counters(): EngineCounters;
  // Every open socket `ms` older, and every DoT connection idle `ms` longer: a test of the socket age limit
  // (250 ms) or of the idle close (10 s) need not wait for it.
  ageSockets(ms: number): void;
  close(): void;
}

const CANCELLED: QueryEntry = { error: 'cancelled' };

// Outcomes are resolver-major: resolver i, type j at i * types.length + j; a missing one was cancelled.
function shape(request: ResolverQuery, packed: readonly unknown[], fallback: QueryEntry): ResolverQueries[] {
  const { types, resolvers } = request;
  const entries = packed.length === 0 ? [] : unpackOutcomes(packed, types, resolvers.length, request);
  return resolvers.map((resolver, i) => {
    const queries: Partial<Record<RecordType, QueryEntry>> = {};
    types.forEach((type, j) => (queries[type] = entries[i * types.length + j] ?? { ...fallback }));
    return { resolver, queries };
  });
}

// Each resolver's endpoint number (NativeDnsEngine.endpoint), asked of the engine once: resolvers are
// configuration, the same objects request after request.
function endpointNumbers(engine: NativeDnsEngine): (resolvers: readonly ResolverConfig[]) => number[] {
  const known = new WeakMap<ResolverConfig, number>();
  return (resolvers) => {
    const ids = new Array<number>(resolvers.length);
    for (let i = 0; i < resolvers.length; i++) {
      const r = resolvers[i] as ResolverConfig;
      let id = known.get(r);
      if (id === undefined) {
        id = engine.endpoint(r.address, r.port, r.tlsName);
        known.set(r, id);
      }
      ids[i] = id;
    }
    return ids;
  };
}

// `windowPerResolver`: see windowShare in native.ts. `tlsCaFile`: trust anchors for DoT resolvers besides
// the system's (NETTOOLS_TLS_CA_FILE).
export function openResolverClient(windowPerResolver?: number, tlsCaFile?: string | null): ResolverClient {
  const Engine = nativeEngineClass();
  const engine = new Engine(windowPerResolver, tlsCaFile ?? undefined);
  // A canceller per request in flight, so close() can settle every promise it strands (a list, not a
  // Set: see linked-list.ts for what a table that swings with the load keeps alive).
  const pending = new LinkedList<() => void>();
  const endpointsOf = endpointNumbers(engine);
  // One native call and one callback per request, whatever its number of resolvers and types.
  const start = (request: ResolverQuery, done: (results: ResolverQueries[]) => void, onEntry?: (settled: SettledEntry) => void): (() => void) => {
    let id = 0;
    let settled = false;
    let inFlight: ListNode<() => void> | null = null;
    const progress = onEntry && entryProgress(request, onEntry);
    const finish = (results: ResolverQueries[]) => {
      progress?.finish(results);
      done(results);
    };
    const settle = (...packed: unknown[]) => {
      if (settled) return;
      settled = true;
      if (inFlight !== null) pending.remove(inFlight);
      finish(shape(request, packed, CANCELLED));
    };
    const cancel = () => {
      progress?.stop();
      settle(...(settled ? [] : (engine.cancel(id) ?? [])));
    };
    try {
      const subnet = request.clientSubnet;
      id = engine.queryMany(request.domain, request.types, endpointsOf(request.resolvers), request.timeoutMs, settle, progress?.native, request.dnssec, subnet?.address, subnet?.prefix);
    } catch (err) {
      settled = true;
      finish(shape(request, [], { error: errorCode(err) }));
      return cancel;
    }
    if (id !== 0) inFlight = pending.push(cancel); // 0: settled already, nothing could start
    return cancel;
  };
  return {
    start,
    query(request, signal, onEntry) {
      return promised((done: Answer<ResolverQueries[]>) => {
        if (signal?.aborted) return done(shape(request, [], CANCELLED));
        let finished = false;
        const cancel = start(request, (results) => {
          finished = true;
          signal?.removeEventListener('abort', cancel);
          done(results);
        }, onEntry);
        if (!finished) signal?.addEventListener('abort', cancel, { once: true });
      });
    },
    counters: () => engine.counters(),
    ageSockets: (ms) => engine.ageSockets(ms),
    close() {
      for (const cancel of pending.drain()) cancel();
      engine.close();
    },
  };
}
