import type { ResolverClient } from './index';
import type { QueryEntry, RecordType, ResolverQueries, ResolverQuery } from './types';
import type { ResolverConfig } from '../../config/types';

// Identical questions (resolver, name, type, timeout) in flight at the same moment go upstream once,
// and every request waiting for one gets its answer. Nothing is kept once the answer is in: a later
// request asks again. A request that goes away stops waiting; the upstream query is cancelled only
// when nobody waits for any question it carries.

const CANCELLED: QueryEntry = { error: 'cancelled' };

interface Flight {
  waiters: number;
  answer: Promise<QueryEntry>;
  batch: Batch;
}

// One upstream call: one resolver, the types nobody else was asking it already.
interface Batch {
  abort: AbortController;
  flights: Flight[];
}

function questionKey(resolver: ResolverConfig, name: string, type: RecordType, timeoutMs: number): string {
  return `${resolver.address}|${resolver.port}|${name.toLowerCase()}|${type}|${timeoutMs}`;
}

export interface CoalescingClient extends ResolverClient {
  // What a request would send now: its questions nobody is asking yet, per resolver.
  newQuestions(request: ResolverQuery): Map<ResolverConfig, RecordType[]>;
}

type Flights = Map<string, Flight>;

// Sends `types` to each of `resolvers` as one upstream call (one native call), a flight per question.
function launch(inner: ResolverClient, flights: Flights, resolvers: ResolverConfig[], name: string, types: RecordType[], timeoutMs: number): void {
  const batch: Batch = { abort: new AbortController(), flights: [] };
  const result = inner.query({ domain: name, types, resolvers, timeoutMs }, batch.abort.signal);
  resolvers.forEach((resolver, i) => {
    for (const type of types) {
      const key = questionKey(resolver, name, type, timeoutMs);
      const flight: Flight = { waiters: 0, answer: result.then((all) => all[i]?.queries[type] ?? CANCELLED), batch };
      batch.flights.push(flight);
      flights.set(key, flight);
      // Gone once answered: the next request asks again.
      void flight.answer.then(() => flights.get(key) === flight && flights.delete(key));
    }
  });
}

// One request waiting for a flight's answer, until it comes or the request goes away.
function wait(flights: Flights, key: string, signal: AbortSignal | undefined): Promise<QueryEntry> {
  const flight = flights.get(key) as Flight;
  flight.waiters++;
  if (signal === undefined) return flight.answer;
  return new Promise((resolve) => {
    const leave = () => {
      flight.waiters--;
      // The last one waiting for anything this upstream call carries: nobody needs it any more.
      if (flight.batch.flights.every((f) => f.waiters === 0)) flight.batch.abort.abort();
      resolve(CANCELLED);
    };
    if (signal.aborted) return leave();
    signal.addEventListener('abort', leave, { once: true });
    void flight.answer.then((entry) => {
      signal.removeEventListener('abort', leave);
      if (!signal.aborted) resolve(entry);
    });
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
    async query(request, signal) {
      const { domain, types, resolvers, timeoutMs } = request;
      if (signal?.aborted) return resolvers.map((resolver) => ({ resolver, queries: Object.fromEntries(types.map((t) => [t, { ...CANCELLED }])) }));
      // Resolvers missing the same types share one upstream call: with nothing in flight, that is the
      // whole request in one native call, as without coalescing.
      const groups = new Map<string, { types: RecordType[]; resolvers: ResolverConfig[] }>();
      for (const [resolver, missing] of newQuestions(request)) {
        const group = groups.get(missing.join(',')) ?? { types: missing, resolvers: [] };
        group.resolvers.push(resolver);
        groups.set(missing.join(','), group);
      }
      for (const g of groups.values()) launch(inner, flights, g.resolvers, domain, g.types, timeoutMs);
      return Promise.all(
        resolvers.map(async (resolver): Promise<ResolverQueries> => {
          const entries = await Promise.all(types.map((t) => wait(flights, questionKey(resolver, domain, t, timeoutMs), signal)));
          return { resolver, queries: Object.fromEntries(types.map((t, i) => [t, entries[i]])) as ResolverQueries['queries'] };
        }),
      );
    },
    counters: () => inner.counters(),
    close: () => inner.close(),
  };
}
