import type { BucketAnswer } from './limiter-store';

// Bucket decisions asked for in one turn of the event loop go to Redis as one script call
// (BUCKET_BATCH_SCRIPT), whatever store or prefix they come from. A call per decision cost this server
// about 30 µs of CPU per request in ioredis alone (a command object, a promise, a timeout timer and a
// reply to parse each) and Redis a script run each, on the cheapest path there is (a validation error);
// a batch pays those once. Every decision still costs at most one round trip, and waits at most for the
// end of the current loop turn before it is sent. A batch is capped so one script never holds Redis,
// which runs scripts one at a time, for long.

export const MAX_BATCH = 128;
const ARGS_PER_BUCKET = 5;
const ANSWERS_PER_BUCKET = 4;

// The script call: its number of keys, the keys, then ARGS_PER_BUCKET values per key.
export type BatchCall = (numKeys: number, ...keysThenArgs: Array<string | number>) => Promise<unknown>;

export class MalformedStoreReplyError extends Error {
  readonly code = 'rate-limit-store-malformed-reply';
  constructor() {
    super('the shared rate-limit store answered a batch with something else than four integers per bucket');
  }
}

interface Waiter {
  resolve(answer: BucketAnswer): void;
  reject(error: Error): void;
}

export class RedisBucketBatch {
  #keys: string[] = [];
  #args: Array<string | number> = [];
  #waiters: Waiter[] = [];
  #scheduled = false;
  #calls = 0;

  constructor(private readonly call: BatchCall) {}

  // `clock`: a clock reading in ms for tests, '' for Redis's own TIME. `spend`: '1' to spend into debt.
  decide(key: string, capacity: number, windowMs: number, cost: number, clock: string, spend: '1' | ''): Promise<BucketAnswer> {
    return new Promise((resolve, reject) => {
      this.#keys.push(key);
      this.#args.push(capacity, windowMs, cost, clock, spend);
      this.#waiters.push({ resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(this.#flush);
      }
    });
  }

  // Script calls sent so far (one per batch).
  get calls(): number {
    return this.#calls;
  }

  #flush = (): void => {
    this.#scheduled = false;
    const keys = this.#keys;
    const args = this.#args;
    const waiters = this.#waiters;
    this.#keys = [];
    this.#args = [];
    this.#waiters = [];
    for (let from = 0; from < keys.length; from += MAX_BATCH) {
      const to = Math.min(keys.length, from + MAX_BATCH);
      this.#send(keys.slice(from, to), args.slice(from * ARGS_PER_BUCKET, to * ARGS_PER_BUCKET), waiters.slice(from, to));
    }
  };

  #send(keys: string[], args: Array<string | number>, waiters: Waiter[]): void {
    this.#calls++;
    this.call(keys.length, ...keys, ...args).then(
      (reply) => {
        if (!isAnswerList(reply, waiters.length)) {
          const error = new MalformedStoreReplyError();
          for (const w of waiters) w.reject(error);
          return;
        }
        for (let i = 0; i < waiters.length; i++) (waiters[i] as Waiter).resolve(answerAt(reply, i));
      },
      (error: Error) => {
        for (const w of waiters) w.reject(error);
      },
    );
  }
}

function isAnswerList(reply: unknown, buckets: number): reply is number[] {
  return Array.isArray(reply) && reply.length === buckets * ANSWERS_PER_BUCKET && reply.every((n) => typeof n === 'number');
}

function answerAt(reply: number[], i: number): BucketAnswer {
  const o = i * ANSWERS_PER_BUCKET;
  const resetMs = reply[o + 2] as number;
  const retryAfterMs = reply[o + 3] as number;
  return {
    allowed: reply[o] === 1,
    remaining: reply[o + 1] as number,
    resetMs,
    resetSeconds: Math.ceil(resetMs / 1000),
    retryAfterMs,
    retryAfterSeconds: Math.ceil(retryAfterMs / 1000),
  };
}
