import type { AnswerCallback } from './limiter-store';
import { ANSWERS_PER_ITEM, ARGS_PER_ITEM } from './redis-bucket-script';
import { answerAt } from './token-bucket';

// Bucket decisions asked for in one turn of the event loop go to Redis as one script call
// (BUCKET_BATCH_SCRIPT), whatever store or prefix they come from. A call per decision cost this server
// more CPU in ioredis alone (a command object, a promise, a timeout timer and a reply to parse each) than
// the whole of the cheapest request there is (a validation error), and Redis a script run each; a batch
// pays those once (bench/README.md has the figures). Takes of one cost on one bucket that follow each other in a batch travel as
// one item that says how many they are: a client flooding us, the case rate limiting is for, then costs
// Redis one bucket's arithmetic per loop turn, not one per request. Each decision still costs at most one
// round trip and waits at most for the end of the current loop turn. A batch is capped so one script
// never holds Redis, which runs scripts one at a time, for long.

export const MAX_BATCH = 128;

// The script call: its number of keys, the keys, then ARGS_PER_ITEM values per key.
export type BatchCall = (numKeys: number, ...keysThenArgs: Array<string | number>) => Promise<unknown>;

export class MalformedStoreReplyError extends Error {
  readonly code = 'rate-limit-store-malformed-reply';
  constructor() {
    super('the shared rate-limit store answered a batch with something else than two integers per item');
  }
}

// One item of a batch: a decision, or a run of identical takes on one bucket (`waiters` in order).
interface Item {
  key: string;
  capacity: number;
  windowMs: number;
  cost: number;
  clock: string;
  spend: '1' | '';
  waiters: AnswerCallback[];
}

export class RedisBucketBatch {
  #items: Item[] = [];
  // Per key, the item a following take on it may join: the last one for that key, if it is a take.
  #joinable = new Map<string, Item>();
  #scheduled = false;
  #calls = 0;
  #itemsSent = 0;

  constructor(private readonly call: BatchCall) {}

  // `clock`: a clock reading in ms for tests, '' for Redis's own TIME. `spend`: '1' to spend into debt.
  // `done` is called once, when the batch's reply (or its failure) is in.
  decide(key: string, capacity: number, windowMs: number, cost: number, clock: string, spend: '1' | '', done: AnswerCallback): void {
    const isTake = spend === '' && cost > 0;
    const last = this.#joinable.get(key);
    if (isTake && last !== undefined && last.capacity === capacity && last.windowMs === windowMs && last.cost === cost && last.clock === clock) {
      last.waiters.push(done);
    } else {
      const item: Item = { key, capacity, windowMs, cost, clock, spend, waiters: [done] };
      this.#items.push(item);
      if (isTake) this.#joinable.set(key, item);
      else this.#joinable.delete(key);
    }
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#flush);
    }
  }

  // Script calls sent so far (one per batch of at most MAX_BATCH items).
  get calls(): number {
    return this.#calls;
  }

  // Items sent so far: decisions, with each run of takes on one bucket counted once.
  get itemsSent(): number {
    return this.#itemsSent;
  }

  #flush = (): void => {
    this.#scheduled = false;
    const items = this.#items;
    this.#items = [];
    this.#joinable.clear();
    for (let from = 0; from < items.length; from += MAX_BATCH) this.#send(items.slice(from, from + MAX_BATCH));
  };

  #send(items: Item[]): void {
    this.#calls++;
    this.#itemsSent += items.length;
    const keys: string[] = [];
    const args: Array<string | number> = [];
    for (const it of items) {
      keys.push(it.key);
      // ARGS_PER_ITEM values, in the order the script reads them.
      args.push(it.capacity, it.windowMs, it.cost, it.clock, it.spend, it.waiters.length);
    }
    this.call(keys.length, ...keys, ...args).then(
      (reply) => {
        const calls = new Callbacks();
        if (!isAnswerList(reply, items.length)) rejectAll(items, new MalformedStoreReplyError(), calls);
        else for (let i = 0; i < items.length; i++) answerItem(items[i] as Item, reply[i * ANSWERS_PER_ITEM] as number, reply[i * ANSWERS_PER_ITEM + 1] as number, calls);
        calls.rethrow();
      },
      (error: Error) => {
        const calls = new Callbacks();
        rejectAll(items, error, calls);
        calls.rethrow();
      },
    );
  }
}

function rejectAll(items: Item[], error: Error, calls: Callbacks): void {
  for (const it of items) {
    for (const done of it.waiters) calls.call(done, error);
    forget(it);
  }
}

// Every waiter of a reply is answered, once, even when one of them throws (a bug of its caller's): that
// throw must not leave the others unanswered; it comes out once they all are (an unhandled rejection,
// which the last-resort handler logs).
class Callbacks {
  private thrown: { err: unknown } | null = null;

  call(done: AnswerCallback, answer: Parameters<AnswerCallback>[0]): void {
    try {
      done(answer);
    } catch (err) {
      this.thrown ??= { err };
    }
  }

  rethrow(): void {
    if (this.thrown !== null) throw this.thrown.err;
  }
}

// An answered item lets go of its callbacks at once. They hold their requests; an item may stay
// reachable from a dead object the young-generation collector does not look into (the joinable map's
// old table, a command in ioredis's queue), and would then carry whole requests into the old generation.
function forget(it: Item): void {
  it.waiters.length = 0;
}

function isAnswerList(reply: unknown, items: number): reply is number[] {
  return Array.isArray(reply) && reply.length === items * ANSWERS_PER_ITEM && reply.every((n) => Number.isInteger(n));
}

// Each waiter's answer as token-bucket.ts would give it, one decision after the other: `granted` of the
// item's decisions were let through, starting from `before` (the level after refill, in token*window units).
function answerItem(it: Item, granted: number, before: number, calls: Callbacks): void {
  const params = { capacity: it.capacity, windowMs: it.windowMs };
  const full = it.capacity * it.windowMs;
  const need = it.cost * it.windowMs;
  for (let j = 0; j < it.waiters.length; j++) {
    const allowed = j < granted;
    const after = it.spend === '1' ? Math.max(before - need, -full) : before - Math.min(j + 1, granted) * need;
    calls.call(it.waiters[j] as AnswerCallback, answerAt(params, after, allowed, need));
  }
  forget(it);
}
