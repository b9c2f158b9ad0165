import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FailoverStore, SharedStoreHealth, StoreUnavailableError } from '../../src/ratelimit/failover-store';
import type { AnswerCallback, BucketAnswer, LimiterStore } from '../../src/ratelimit/limiter-store';
import { answerNow, throwingCallback } from '../support/answer';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';

const RULE = { capacity: 10, windowMs: 1000 };
const quiet = { outage() {}, recovered() {}, fallback() {} };

// A shared store that cannot be reached: every call fails, as a Redis that is gone does.
const down = (...args: unknown[]) => (args.at(-1) as AnswerCallback)(new Error('down'));
const unreachable: LimiterStore = { take: down, spend: down, peek: down, size: 0, prune: () => false };

test('spend reaches the shared store while it answers', async () => {
  const shared = new MemoryLimiterStore({ max: 10 });
  const local = new MemoryLimiterStore({ max: 10 });
  const store = new FailoverStore(shared, local, new SharedStoreHealth('local', quiet), quiet);
  assert.is(answerNow<BucketAnswer>((d) => store.spend('r', RULE, 13, 0, d)).remaining, -3);
  assert.is(answerNow<BucketAnswer>((d) => shared.peek('r', RULE, 0, d)).remaining, -3);
  assert.is(answerNow<BucketAnswer>((d) => local.peek('r', RULE, 0, d)).remaining, 10);
});

test('spend falls back to the local buckets while the shared store is gone', async () => {
  const local = new MemoryLimiterStore({ max: 10 });
  const store = new FailoverStore(unreachable, local, new SharedStoreHealth('local', quiet), quiet);
  assert.is(answerNow<BucketAnswer>((d) => store.spend('r', RULE, 12, 0, d)).remaining, -2);
  assert.is(answerNow<BucketAnswer>((d) => local.peek('r', RULE, 0, d)).remaining, -2);
});

// A shared store answering takes by callback, when `answer` is called: as the Redis store does.
function answeringLater(): { store: LimiterStore; answer(a: BucketAnswer | Error): void } {
  const waiting: AnswerCallback[] = [];
  const store = { ...unreachable, take: (_k: string, _r: unknown, _c: number, _n: number, done: AnswerCallback) => void waiting.push(done) };
  return { store, answer: (a) => (waiting.shift() as AnswerCallback)(a) };
}

function collect(): { answers: Array<BucketAnswer | Error>; done: AnswerCallback } {
  const answers: Array<BucketAnswer | Error> = [];
  return { answers, done: (a) => void answers.push(a) };
}

test("take passes on the shared store's answer when it comes, and nothing before", () => {
  const shared = answeringLater();
  const store = new FailoverStore(shared.store, new MemoryLimiterStore({ max: 10 }), new SharedStoreHealth('local', quiet), quiet);
  const { answers, done } = collect();
  store.take('r', RULE, 1, 0, done);
  assert.is(answers.length, 0);
  const given = { allowed: true, remaining: 7, resetMs: 300, resetSeconds: 1, retryAfterMs: 0, retryAfterSeconds: 0 };
  shared.answer(given);
  assert.equal(answers, [given]);
});

test('take answers from the local buckets once the shared store fails, and counts the fallback', () => {
  const shared = answeringLater();
  const local = new MemoryLimiterStore({ max: 10 });
  let fallbacks = 0;
  const events = { ...quiet, fallback: () => void fallbacks++ };
  const store = new FailoverStore(shared.store, local, new SharedStoreHealth('local', events), events);
  const { answers, done } = collect();
  store.take('r', RULE, 3, 0, done);
  shared.answer(new Error('down'));
  assert.is(answers.length, 1);
  assert.is((answers[0] as BucketAnswer).remaining, 7);
  assert.is(answerNow<BucketAnswer>((d) => local.peek('r', RULE, 0, d)).remaining, 7);
  assert.is(fallbacks, 1);
});

test('take in closed mode answers StoreUnavailableError once the shared store fails', () => {
  const shared = answeringLater();
  const store = new FailoverStore(shared.store, new MemoryLimiterStore({ max: 10 }), new SharedStoreHealth('closed', quiet), quiet);
  const { answers, done } = collect();
  store.take('r', RULE, 1, 0, done);
  shared.answer(new Error('down'));
  assert.is(answers.length, 1);
  assert.instance(answers[0], StoreUnavailableError);
});

test('a callback that throws on the shared answer is not called again from the local buckets, and the shared store stays up', () => {
  const shared = new MemoryLimiterStore({ max: 10 });
  const local = new MemoryLimiterStore({ max: 10 });
  const health = new SharedStoreHealth('local', quiet);
  const store = new FailoverStore(shared, local, health, quiet);
  const callback = throwingCallback();
  assert.throws(() => store.take('r', RULE, 2, 0, callback.done), /a bug in the callback/);
  assert.is(callback.calls, 1);
  assert.is(health.state, 'shared');
  assert.is(answerNow<BucketAnswer>((d) => shared.peek('r', RULE, 0, d)).remaining, 8);
  assert.is(answerNow<BucketAnswer>((d) => local.peek('r', RULE, 0, d)).remaining, 10);
});

test.run();
