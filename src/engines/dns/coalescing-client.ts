import type { ResolverClient } from './index';
import type { QueryEntry, RecordType, ResolverQueries, ResolverQuery } from './types';
import type { ResolverConfig } from '../../config/types';

// Identical questions (resolver, name, type, timeout) in flight at the same moment go upstream once,
// and every request waiting for one gets its answer. Nothing is kept once the answer is in: a later
// request asks again. A request that goes away stops waiting; the upstream query is cancelled only
// when nobody waits for any question it carries. This is on the path of every DNS request, so: one
// string key per request (name and timeout), resolvers by identity, types by index; answers reach
// waiters by plain callbacks, one delivery per upstream call, no promise per question.

const CANCELLED: QueryEntry = { error: 'cancelled' };
const TYPE_INDEX: Record<RecordType, number> = { A: 0, AAAA: 1, MX: 2, TXT: 3 };

type Waiter = (entry: QueryEntry) => void;

interface Flight {
  waiters: Waiter[];
  batch: Batch;
}

// One upstream call: some resolvers, the types nobody else was asking them already; flights
// resolver-major, as the engine answers.
interface Batch {
  name: string; // nameKey
  cancel: () => void;
  flights: Flight[];
}

// Questions in flight for one name and timeout: per resolver, a flight per type index.
type NameFlights = Map<ResolverConfig, Array<Flight | undefined>>;
type Flights = Map<string, NameFlights>;

function nameKey(domain: string, timeoutMs: number): string {
  return `${timeoutMs}|${domain.toLowerCase()}`;
}

export interface CoalescingClient extends Omit<ResolverClient, 'start'> {
  // What a request would send now: its questions nobody is asking yet, per resolver.
  newQuestions(request: ResolverQuery): Map<ResolverConfig, RecordType[]>;
}

// Hands each question's answer to whoever waits for it; the questions are then no longer in flight.
function deliver(flights: Flights, batch: Batch, resolvers: readonly ResolverConfig[], types: readonly RecordType[], results: ResolverQueries[]): void {
  const byName = flights.get(batch.name);
  for (let i = 0; i < resolvers.length; i++) {
    const slots = byName?.get(resolvers[i] as ResolverConfig);
    const queries = results[i]?.queries;
    for (let j = 0; j < types.length; j++) {
      const type = types[j] as RecordType;
      const flight = batch.flights[i * types.length + j] as Flight;
      if (slots !== undefined && slots[TYPE_INDEX[type]] === flight) slots[TYPE_INDEX[type]] = undefined;
      const waiters = flight.waiters;
      flight.waiters = [];
      const entry = queries?.[type] ?? CANCELLED;
      for (const waiter of waiters) waiter(entry);
    }
    if (slots !== undefined && slots.every((f) => f === undefined)) byName?.delete(resolvers[i] as ResolverConfig);
  }
  if (byName !== undefined && byName.size === 0 && flights.get(batch.name) === byName) flights.delete(batch.name);
}

// Sends `types` to each of `resolvers` as one upstream call (one native call), a flight per question.
function launch(inner: ResolverClient, flights: Flights, name: string, request: ResolverQuery): void {
  const { resolvers, types } = request;
  const batch: Batch = { name, cancel: () => undefined, flights: [] };
  let byName = flights.get(name);
  if (byName === undefined) flights.set(name, (byName = new Map()));
  for (const resolver of resolvers) {
    let slots = byName.get(resolver);
    if (slots === undefined) byName.set(resolver, (slots = [undefined, undefined, undefined, undefined]));
    for (const type of types) {
      const flight: Flight = { waiters: [], batch };
      batch.flights.push(flight);
      slots[TYPE_INDEX[type]] = flight;
    }
  }
  let starting = true;
  batch.cancel = inner.start(request, (results) => {
    // Settled before anyone could join (nothing could start): hand it over once they have.
    if (starting) queueMicrotask(() => deliver(flights, batch, resolvers, types, results));
    else deliver(flights, batch, resolvers, types, results);
  });
  starting = false;
}

// One request's wait for its questions' answers, until all are in or the request goes away.
function gather(byName: NameFlights, request: ResolverQuery, signal: AbortSignal | undefined): Promise<ResolverQueries[]> {
  const { types, resolvers } = request;
  return new Promise((resolve) => {
    // Keys laid out in the request's order now, whichever answer comes first.
    const results: ResolverQueries[] = resolvers.map((resolver) => {
      const queries: ResolverQueries['queries'] = {};
      for (const t of types) queries[t] = undefined;
      return { resolver, queries };
    });
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
      const slots = byName.get(resolver) as Array<Flight | undefined>;
      const queries = (results[i] as ResolverQueries).queries;
      for (const type of types) {
        const flight = slots[TYPE_INDEX[type]] as Flight;
        const waiter: Waiter = (entry) => {
          queries[type] = entry;
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

  const missing = (byName: NameFlights | undefined, resolver: ResolverConfig, types: readonly RecordType[]): RecordType[] => {
    const slots = byName?.get(resolver);
    return slots === undefined ? [...types] : types.filter((t) => slots[TYPE_INDEX[t]] === undefined);
  };

  const newQuestions = (request: ResolverQuery): Map<ResolverConfig, RecordType[]> => {
    const byName = flights.get(nameKey(request.domain, request.timeoutMs));
    const fresh = new Map<ResolverConfig, RecordType[]>();
    for (const resolver of request.resolvers) {
      const types = missing(byName, resolver, request.types);
      if (types.length > 0) fresh.set(resolver, types);
    }
    return fresh;
  };

  return {
    newQuestions,
    query(request, signal) {
      const { types, resolvers } = request;
      if (signal?.aborted) return Promise.resolve(resolvers.map((resolver) => ({ resolver, queries: Object.fromEntries(types.map((t) => [t, { ...CANCELLED }])) })));
      const name = nameKey(request.domain, request.timeoutMs);
      const byName = flights.get(name);
      // Nothing in flight for this name (a fresh name, the common case): the whole request is one
      // upstream call, as without coalescing.
      if (byName === undefined) {
        launch(inner, flights, name, request);
        return gather(flights.get(name) as NameFlights, request, signal);
      }
      // Resolvers missing the same types share one upstream call.
      const groups = new Map<string, { types: RecordType[]; resolvers: ResolverConfig[] }>();
      for (const resolver of resolvers) {
        const lacking = missing(byName, resolver, types);
        if (lacking.length === 0) continue;
        const group = groups.get(lacking.join(',')) ?? { types: lacking, resolvers: [] };
        group.resolvers.push(resolver);
        groups.set(lacking.join(','), group);
      }
      for (const g of groups.values()) launch(inner, flights, name, { ...request, types: g.types, resolvers: g.resolvers });
      return gather(flights.get(name) as NameFlights, request, signal);
    },
    counters: () => inner.counters(),
    close: () => inner.close(),
  };
}
