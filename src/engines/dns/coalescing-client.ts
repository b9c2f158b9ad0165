import type { ResolverClient } from './index';
import type { QueryEntry, RecordType, ResolverQueries, ResolverQuery } from './types';
import type { ResolverConfig } from '../../config/types';

// Identical questions (resolver, name, type, timeout) in flight at the same moment go upstream once,
// and every request waiting for one gets its answer. Nothing is kept once the answer is in: a later
// request asks again. A request that goes away stops waiting; the upstream query is cancelled only
// when nobody waits for any question it carries. Answers reach waiters by plain callbacks, one
// delivery per upstream call: no promise per question on the path of every request.

const CANCELLED: QueryEntry = { error: 'cancelled' };

type Waiter = (entry: QueryEntry) => void;

interface Flight {
  key: string;
  waiters: Waiter[];
  batch: Batch;
}

// One upstream call: some resolvers, the types nobody else was asking them already; flights
// resolver-major, as the engine answers.
interface Batch {
  cancel: () => void;
  flights: Flight[];
}

type Flights = Map<string, Flight>;

function questionKey(resolver: ResolverConfig, name: string, type: RecordType, timeoutMs: number): string {
  return `${resolver.address}|${resolver.port}|${name.toLowerCase()}|${type}|${timeoutMs}`;
}

export interface CoalescingClient extends Omit<ResolverClient, 'start'> {
  // What a request would send now: its questions nobody is asking yet, per resolver.
  newQuestions(request: ResolverQuery): Map<ResolverConfig, RecordType[]>;
}

// Hands each question's answer to whoever waits for it; the questions are then no longer in flight.
function deliver(flights: Flights, batch: Batch, types: readonly RecordType[], results: ResolverQueries[]): void {
  results.forEach(({ queries }, i) => {
    types.forEach((type, j) => {
      const flight = batch.flights[i * types.length + j] as Flight;
      if (flights.get(flight.key) === flight) flights.delete(flight.key);
      const waiters = flight.waiters;
      flight.waiters = [];
      const entry = queries[type] ?? CANCELLED;
      for (const waiter of waiters) waiter(entry);
    });
  });
}

// Sends `types` to each of `resolvers` as one upstream call (one native call), a flight per question.
function launch(inner: ResolverClient, flights: Flights, resolvers: ResolverConfig[], name: string, types: RecordType[], timeoutMs: number): void {
  const batch: Batch = { cancel: () => undefined, flights: [] };
  for (const resolver of resolvers) {
    for (const type of types) {
      const flight: Flight = { key: questionKey(resolver, name, type, timeoutMs), waiters: [], batch };
      batch.flights.push(flight);
      flights.set(flight.key, flight);
    }
  }
  let starting = true;
  batch.cancel = inner.start({ domain: name, types, resolvers, timeoutMs }, (results) => {
    // Settled before anyone could join (nothing could start): hand it over once they have.
    if (starting) queueMicrotask(() => deliver(flights, batch, types, results));
    else deliver(flights, batch, types, results);
  });
  starting = false;
}

// One request's wait for its questions' answers, until all are in or the request goes away.
function gather(flights: Flights, request: ResolverQuery, signal: AbortSignal | undefined): Promise<ResolverQueries[]> {
  const { domain, types, resolvers, timeoutMs } = request;
  return new Promise((resolve) => {
    // Keys laid out in the request's order now, whichever answer comes first.
    const results: ResolverQueries[] = resolvers.map((resolver) => ({ resolver, queries: Object.fromEntries(types.map((t) => [t, undefined])) }));
    const joined: Array<[Flight, Waiter]> = [];
    let pending = resolvers.length * types.length;
    let done = false;
    const finish = () => {
      done = true;
      signal?.removeEventListener('abort', leave);
      resolve(results);
    };
    const leave = () => {
      if (done) return;
      for (const [flight, waiter] of joined) flight.waiters = flight.waiters.filter((w) => w !== waiter);
      // The last one waiting for anything an upstream call carries: nobody needs it any more.
      for (const [flight] of joined) if (flight.batch.flights.every((f) => f.waiters.length === 0)) flight.batch.cancel();
      for (const r of results) for (const t of types) r.queries[t] ??= CANCELLED;
      finish();
    };
    resolvers.forEach((resolver, i) => {
      for (const type of types) {
        const flight = flights.get(questionKey(resolver, domain, type, timeoutMs)) as Flight;
        const waiter: Waiter = (entry) => {
          (results[i] as ResolverQueries).queries[type] = entry;
          if (--pending === 0 && !done) finish();
        };
        flight.waiters.push(waiter);
        joined.push([flight, waiter]);
      }
    });
    if (pending === 0) finish();
    else signal?.addEventListener('abort', leave, { once: true });
  });
}

export function coalesce(inner: ResolverClient): CoalescingClient {
  const flights: Flights = new Map();

  const newQuestions = (request: ResolverQuery): Map<ResolverConfig, RecordType[]> => {
    const fresh = new Map<ResolverConfig, RecordType[]>();
    for (const resolver of request.resolvers) {
      const types = request.types.filter((t) => !flights.has(questionKey(resolver, request.domain, t, request.timeoutMs)));
      if (types.length > 0) fresh.set(resolver, types);
    }
    return fresh;
  };

  return {
    newQuestions,
    query(request, signal) {
      const { types, resolvers } = request;
      if (signal?.aborted) return Promise.resolve(resolvers.map((resolver) => ({ resolver, queries: Object.fromEntries(types.map((t) => [t, { ...CANCELLED }])) })));
      // Resolvers missing the same types share one upstream call: with nothing in flight, that is the
      // whole request in one native call, as without coalescing.
      const groups = new Map<string, { types: RecordType[]; resolvers: ResolverConfig[] }>();
      for (const [resolver, missing] of newQuestions(request)) {
        const group = groups.get(missing.join(',')) ?? { types: missing, resolvers: [] };
        group.resolvers.push(resolver);
        groups.set(missing.join(','), group);
      }
      for (const g of groups.values()) launch(inner, flights, g.resolvers, request.domain, g.types, request.timeoutMs);
      return gather(flights, request, signal);
    },
    counters: () => inner.counters(),
    close: () => inner.close(),
  };
}
