import { performance } from 'node:perf_hooks';
import type { ResolverClient } from './index';
import { RECORD_TYPES, sendsOf, type QueryEntry, type RecordType, type ResolverQueries, type ResolverQuery, type SettledEntry } from './types';
import type { ResolverConfig } from '../../config/types';
import type { CancelToken } from '../../util/cancel';

// Identical questions (resolver, name, type) in flight at the same moment go upstream once, and every
// request waiting for one gets its answer, whatever timeout each asked with. Nothing is kept once the
// answer is in: a later request asks again. A request that goes away stops waiting; the upstream query
// is cancelled only when nobody waits for any question it carries. A request that joins a query which
// may run past its own timeout is answered by its own deadline all the same. This is on the path of
// every DNS request, so: one string key per request (the name), resolvers by identity, types by index;
// answers reach waiters by plain callbacks, one delivery per upstream call, no promise per question. The
// request that launches an upstream call (nearly every one: names are rarely asked twice at once) is its
// owner and gets the engine's results as they are; only requests that join it wait question by question.
// Entries as they settle (onEntry): the owner is told each as the engine settles it (ResolverClient's
// onEntry); a request that joined questions already in flight is told each of them when the upstream call
// carrying it ends (that call's entries together), or as a timeout at its own deadline; none after it went
// away. Only a request that asks for them makes the engine report per query.

const CANCELLED: QueryEntry = { error: 'cancelled' };
// What a joining request reads for a question still unanswered at its own deadline: the entry the
// engine itself gives a query whose budget ran out.
const TIMED_OUT: QueryEntry = { error: 'timeout' };
// A question's slot among its name's flights to one resolver: every type has its own, so (name, type) is the key.
const TYPE_INDEX = Object.fromEntries(RECORD_TYPES.map((t, i) => [t, i])) as Record<RecordType, number>;

type Waiter = (entry: QueryEntry) => void;

interface Flight {
  waiters: Waiter[] | null; // made when the first request joins: most flights are never joined
  batch: Batch;
}

type Owner = (results: ResolverQueries[]) => void;
type OnEntry = (settled: SettledEntry) => void;

// One upstream call: some resolvers, the types nobody else was asking them already; flights
// resolver-major, as the engine answers.
interface Batch {
  name: string; // nameKey
  cancel: () => void;
  flights: Flight[];
  endsMs: number; // performance.now() by which the engine has settled every question it carries
  reserved: number[]; // per resolver: how many of its questions were reserved before launch
  owner: Owner | null; // the launching request while it waits
  slotOf: number[]; // per type of the call, its slot (TYPE_INDEX), looked up once: a lookup by type name is a megamorphic load
}

// Questions in flight for one name: per resolver, a flight per type index.
type NameFlights = Map<ResolverConfig, Array<Flight | undefined>>;
type Flights = Map<string, NameFlights>;

// The questions a request reserved from the resolvers' budgets before asking (see Upstream.admit).
export type Reserved = ReadonlyMap<ResolverConfig, readonly RecordType[]>;

// Packets the engine sent for one upstream call to one resolver, told once, when the call's outcome
// arrives (answered, failed or cancelled), whoever still waits then; `reserved` of them were paid for
// before the call was launched.
export type SentHook = (resolver: ResolverConfig, sends: number, reserved: number) => void;

// The name, and what its queries' OPT record asks: a DO query must never be answered by a query without
// DO in flight (it has no RRSIGs, no AD), nor an ECS query by one for another subnet or none.
function nameKey(request: ResolverQuery): string {
  const name = request.domain.toLowerCase();
  if (request.dnssec !== true && request.clientSubnet === undefined) return name;
  const subnet = request.clientSubnet;
  return `${name} ${request.dnssec === true ? 'do' : ''} ${subnet === undefined ? '' : `${subnet.address}/${subnet.prefix}`}`;
}

export interface CoalescingClient extends Omit<ResolverClient, 'start' | 'query' | 'ageSockets'> {
  // `reserved`: the questions this request paid for, so the packets of what it launches are charged
  // once, beyond what it paid.
  // `done` is called once, with the outcomes (every question cancelled if `cancel` fired first), at once
  // if it already had; it must not throw. `onEntry`: each of the request's entries as it settles, before
  // `done` (see above).
  query(request: ResolverQuery, done: (results: ResolverQueries[]) => void, cancel?: CancelToken, reserved?: Reserved, onEntry?: OnEntry): void;
  // What a request would send now: its questions nobody is asking yet, per resolver.
  newQuestions(request: ResolverQuery): Map<ResolverConfig, RecordType[]>;
  // The one hook told what every upstream call sent (the resolver budget's charge).
  onSent(hook: SentHook): void;
}

// Hands each question's answer to whoever waits for it; the questions are then no longer in flight.
function deliver(flights: Flights, batch: Batch, request: ResolverQuery, results: ResolverQueries[], sent: SentHook | null): void {
  const { resolvers, types } = request;
  const byName = flights.get(batch.name);
  for (let i = 0; i < resolvers.length; i++) {
    const slots = byName?.get(resolvers[i] as ResolverConfig);
    const queries = results[i]?.queries;
    let sends = 0;
    for (let j = 0; j < types.length; j++) {
      const type = types[j] as RecordType;
      const flight = batch.flights[i * types.length + j] as Flight;
      const slot = batch.slotOf[j] as number;
      if (slots !== undefined && slots[slot] === flight) slots[slot] = undefined;
      const waiters = flight.waiters;
      const entry = queries?.[type] ?? CANCELLED;
      sends += sendsOf(entry);
      if (waiters !== null) {
        flight.waiters = null;
        for (const waiter of waiters) waiter(entry);
      }
    }
    sent?.(resolvers[i] as ResolverConfig, sends, batch.reserved[i] as number);
    if (slots !== undefined && slots.every((f) => f === undefined)) byName?.delete(resolvers[i] as ResolverConfig);
  }
  if (byName !== undefined && byName.size === 0 && flights.get(batch.name) === byName) flights.delete(batch.name);
  const owner = batch.owner;
  batch.owner = null;
  owner?.(results);
}

// Nobody waits for any question the call carries: it can be cancelled.
function unwanted(batch: Batch): boolean {
  return batch.owner === null && batch.flights.every((f) => f.waiters === null || f.waiters.length === 0);
}

// How many of `types` the request reserved for `resolver`.
function reservedOf(reserved: Reserved | undefined, resolver: ResolverConfig, types: readonly RecordType[]): number {
  const own = reserved?.get(resolver);
  if (own === undefined) return 0;
  let n = 0;
  for (const type of types) if (own.includes(type)) n++;
  return n;
}

// Sends `types` to each of `resolvers` as one upstream call (one native call), a flight per question.
// `owner`, if any, asked exactly `request` and gets the call's results, in its order, and with `onEntry`
// each entry as it settles while it waits.
function launch(inner: ResolverClient, flights: Flights, name: string, request: ResolverQuery, nowMs: number, reserved: Reserved | undefined, sent: () => SentHook | null, owner: Owner | null, onEntry?: OnEntry): Batch {
  const { resolvers, types } = request;
  const slotOf = types.map((type) => TYPE_INDEX[type]);
  const batch: Batch = { name, cancel: () => undefined, flights: [], endsMs: nowMs + request.timeoutMs, reserved: [], owner, slotOf };
  let byName = flights.get(name);
  if (byName === undefined) flights.set(name, (byName = new Map()));
  for (const resolver of resolvers) {
    let slots = byName.get(resolver);
    if (slots === undefined) byName.set(resolver, (slots = [undefined, undefined, undefined, undefined, undefined]));
    for (let j = 0; j < types.length; j++) {
      const flight: Flight = { waiters: null, batch };
      batch.flights.push(flight);
      slots[slotOf[j] as number] = flight;
    }
    batch.reserved.push(reservedOf(reserved, resolver, types));
  }
  let starting = true;
  const tell = (s: SettledEntry): void => {
    if (batch.owner !== null) onEntry?.(s);
  };
  batch.cancel = inner.start(request, (results) => {
    // Settled before anyone could join (nothing could start): hand it over once they have.
    if (starting) queueMicrotask(() => deliver(flights, batch, request, results, sent()));
    else deliver(flights, batch, request, results, sent());
  }, onEntry && ((s) => (starting ? queueMicrotask(() => tell(s)) : tell(s))));
  starting = false;
  return batch;
}

// The launching request's wait: `done` gets the call's results, or every question cancelled if the request
// goes away first (the call itself then runs on while anyone joined it).
function own(inner: ResolverClient, flights: Flights, name: string, request: ResolverQuery, nowMs: number, reserved: Reserved | undefined, sent: () => SentHook | null, done: Owner, cancel: CancelToken | undefined, onEntry: OnEntry | undefined): void {
  let stopListening: (() => void) | undefined;
  const batch = launch(inner, flights, name, request, nowMs, reserved, sent, (results) => {
    stopListening?.();
    done(results);
  }, onEntry);
  if (cancel === undefined) return;
  // Once the request went away the batch has no owner: deliver() then tells nobody, so `done` runs once.
  stopListening = cancel.onAbort(() => {
    if (batch.owner === null) return;
    batch.owner = null;
    if (unwanted(batch)) batch.cancel();
    done(cancelledAll(request, CANCELLED));
  });
}

// One request's wait for its questions' answers, until all are in, the request goes away, or (with
// `deadlineMs`, for a request that joined questions already in flight) its own deadline passes.
function gather(byName: NameFlights, request: ResolverQuery, done: Owner, cancel: CancelToken | undefined, deadlineMs: number | null, onEntry: OnEntry | undefined): void {
  const { types, resolvers } = request;
  // Keys laid out in the request's order now, whichever answer comes first.
  const results: ResolverQueries[] = resolvers.map((resolver) => {
    const queries: ResolverQueries['queries'] = {};
    for (const t of types) queries[t] = undefined;
    return { resolver, queries };
  });
  const joined: Array<[Flight, Waiter]> = [];
  let pending = resolvers.length * types.length;
  let over = false;
  let timer: NodeJS.Timeout | undefined;
  let stopListening: (() => void) | undefined;
  const finish = () => {
    over = true;
    if (timer !== undefined) clearTimeout(timer);
    stopListening?.();
    done(results);
  };
  // Stops waiting; what is unanswered reads as `entry` (told as such at the deadline, not once gone).
  const stop = (entry: QueryEntry) => {
    if (over) return;
    for (const [flight, waiter] of joined) if (flight.waiters !== null) flight.waiters = flight.waiters.filter((w) => w !== waiter);
    // The last one waiting for anything an upstream call carries: nobody needs it any more.
    for (const [flight] of joined) if (unwanted(flight.batch)) flight.batch.cancel();
    results.forEach((r, i) => types.forEach((type, j) => {
      if (r.queries[type] !== undefined) return;
      r.queries[type] = entry;
      if (entry !== CANCELLED) onEntry?.({ resolverIndex: i, typeIndex: j, resolver: r.resolver, type, entry });
    }));
    finish();
  };
  const leave = () => stop(CANCELLED);
  resolvers.forEach((resolver, i) => {
    const slots = byName.get(resolver) as Array<Flight | undefined>;
    const queries = (results[i] as ResolverQueries).queries;
    types.forEach((type, j) => {
      const flight = slots[TYPE_INDEX[type]] as Flight;
      const waiter: Waiter = (entry) => {
        queries[type] = entry;
        onEntry?.({ resolverIndex: i, typeIndex: j, resolver, type, entry });
        if (--pending === 0 && !over) finish();
      };
      (flight.waiters ??= []).push(waiter);
      joined.push([flight, waiter]);
    });
  });
  if (pending === 0) return finish();
  stopListening = cancel?.onAbort(leave);
  if (deadlineMs !== null && joined.some(([flight]) => flight.batch.endsMs > deadlineMs)) {
    timer = setTimeout(() => stop(TIMED_OUT), deadlineMs - performance.now());
  }
}

// Resolvers missing the same types, grouped so each group is one upstream call.
function lackingGroups(byName: NameFlights, request: ResolverQuery): Array<{ types: RecordType[]; resolvers: ResolverConfig[] }> {
  const groups = new Map<string, { types: RecordType[]; resolvers: ResolverConfig[] }>();
  for (const resolver of request.resolvers) {
    const lacking = missing(byName, resolver, request.types);
    if (lacking.length === 0) continue;
    const key = lacking.join(',');
    const group = groups.get(key) ?? { types: lacking, resolvers: [] };
    group.resolvers.push(resolver);
    groups.set(key, group);
  }
  return [...groups.values()];
}

function missing(byName: NameFlights | undefined, resolver: ResolverConfig, types: readonly RecordType[]): RecordType[] {
  const slots = byName?.get(resolver);
  return slots === undefined ? [...types] : types.filter((t) => slots[TYPE_INDEX[t]] === undefined);
}

function cancelledAll(request: ResolverQuery, entry?: QueryEntry): ResolverQueries[] {
  return request.resolvers.map((resolver) => ({ resolver, queries: Object.fromEntries(request.types.map((t) => [t, entry ?? { ...CANCELLED }])) }));
}

export function coalesce(inner: ResolverClient): CoalescingClient {
  const flights: Flights = new Map();
  let sentHook: SentHook | null = null;
  const sent = () => sentHook;

  const newQuestions = (request: ResolverQuery): Map<ResolverConfig, RecordType[]> => {
    const byName = flights.get(nameKey(request));
    const fresh = new Map<ResolverConfig, RecordType[]>();
    for (const resolver of request.resolvers) {
      const types = missing(byName, resolver, request.types);
      if (types.length > 0) fresh.set(resolver, types);
    }
    return fresh;
  };

  return {
    newQuestions,
    query(request, done, cancel, reserved, onEntry) {
      if (cancel?.aborted) return done(cancelledAll(request));
      const name = nameKey(request);
      const byName = flights.get(name);
      const now = performance.now();
      // Nothing in flight for this name (a fresh name, the common case): the whole request is one
      // upstream call, as without coalescing, and it can outlast nothing of its own.
      if (byName === undefined) return own(inner, flights, name, request, now, reserved, sent, done, cancel, onEntry);
      for (const g of lackingGroups(byName, request)) launch(inner, flights, name, { ...request, types: g.types, resolvers: g.resolvers }, now, reserved, sent, null);
      gather(flights.get(name) as NameFlights, request, done, cancel, now + request.timeoutMs, onEntry);
    },
    onSent(hook) {
      sentHook = hook;
    },
    counters: () => inner.counters(),
    close: () => inner.close(),
  };
}
