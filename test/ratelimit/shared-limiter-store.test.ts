import { test } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';
import { SharedLimiterStore, sharedLimiterMemory } from '../../src/ratelimit/shared-limiter-store';
import type { BucketAnswer } from '../../src/ratelimit/limiter-store';
import { answerNow } from '../support/answer';

const STORE = path.resolve(__dirname, '..', '..', 'src', 'ratelimit', 'shared-limiter-store.js');

// A deterministic sequence of operations, as different as the arithmetic allows.
// With `spends`, some operations spend (into debt) instead of taking.
function* operations(seed: number, n: number, spends = false) {
  let x = seed;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const rules = [
    { capacity: 3, windowMs: 10_000 },
    { capacity: 30, windowMs: 60_000 },
    { capacity: 7, windowMs: 1_000 },
  ];
  let now = 1_000_000;
  for (let i = 0; i < n; i++) {
    now += Math.floor(next() * 700);
    const k = Math.floor(next() * 6);
    // A key always has one rule, as a client has one plan.
    const op = { key: `k${k}`, rule: rules[k % rules.length]!, cost: 1 + Math.floor(next() * 3), peek: next() < 0.2, now };
    yield { ...op, spend: spends && !op.peek && next() < 0.3 };
  }
}

test('answers exactly as the in-process store does, operation for operation', () => {
  const memory = new MemoryLimiterStore({ max: 1000 });
  const shared = new SharedLimiterStore(sharedLimiterMemory(1000), 0);
  for (const op of operations(42, 5000)) {
    const a = op.peek ? answerNow<BucketAnswer>((d) => memory.peek(op.key, op.rule, op.now, d)) : answerNow<BucketAnswer>((d) => memory.take(op.key, op.rule, op.cost, op.now, d));
    const b = op.peek ? answerNow<BucketAnswer>((d) => shared.peek(op.key, op.rule, op.now, d)) : answerNow<BucketAnswer>((d) => shared.take(op.key, op.rule, op.cost, op.now, d));
    const fields = (d: typeof a) => [d.allowed, d.remaining, d.resetMs, d.resetSeconds, d.retryAfterMs, d.retryAfterSeconds];
    assert.equal(fields(b), fields(a), JSON.stringify(op));
  }
});

test('spending into debt answers exactly as the in-process store does, operation for operation', () => {
  const memory = new MemoryLimiterStore({ max: 1000 });
  const shared = new SharedLimiterStore(sharedLimiterMemory(1000), 0);
  let debts = 0;
  for (const op of operations(43, 5000, true)) {
    const act = (store: MemoryLimiterStore | SharedLimiterStore) =>
      op.peek ? answerNow<BucketAnswer>((d) => store.peek(op.key, op.rule, op.now, d)) : op.spend ? answerNow<BucketAnswer>((d) => store.spend(op.key, op.rule, op.cost * 4, op.now, d)) : answerNow<BucketAnswer>((d) => store.take(op.key, op.rule, op.cost, op.now, d));
    const a = act(memory);
    const b = act(shared);
    if (a.remaining < 0) debts++;
    const fields = (d: typeof a) => [d.allowed, d.remaining, d.resetMs, d.resetSeconds, d.retryAfterMs, d.retryAfterSeconds];
    assert.equal(fields(b), fields(a), JSON.stringify(op));
  }
  assert.ok(debts > 100, `only ${debts} answers in debt`);
});

test('a full group gives up its least recently used bucket, which starts full again', () => {
  const memory = sharedLimiterMemory(8); // one group of eight slots
  const store = new SharedLimiterStore(memory, 0);
  const rule = { capacity: 2, windowMs: 60_000 };
  for (let i = 0; i < 9; i++) answerNow<BucketAnswer>((d) => store.take(`c${i}`, rule, 2, 1000 + i, d)); // c0..c8: the ninth evicts c0
  assert.is(answerNow<BucketAnswer>((d) => store.peek('c0', rule, 2000, d)).remaining, 2);
  for (let i = 1; i < 9; i++) assert.is(answerNow<BucketAnswer>((d) => store.peek(`c${i}`, rule, 2000, d)).remaining, 0, `c${i}`);
});

test('four threads taking from one bucket at once are admitted exactly its capacity', async () => {
  const memory = sharedLimiterMemory(1024);
  const capacity = 5000;
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { SharedLimiterStore } = require(${JSON.stringify(STORE)});
    const store = new SharedLimiterStore(workerData.memory);
    let allowed = 0;
    for (let i = 0; i < 4000; i++) store.take('one', { capacity: ${capacity}, windowMs: 3600000 }, 1, performance.now(), (a) => { if (a.allowed) allowed++; });
    parentPort.postMessage(allowed);`;
  const counts = await Promise.all(
    Array.from({ length: 4 }, () => new Promise<number>((resolve, reject) => {
      const w = new Worker(source, { eval: true, workerData: { memory } });
      w.once('message', resolve);
      w.once('error', reject);
    })),
  );
  assert.is(counts.reduce((a, b) => a + b, 0), capacity);
});

test.run();
