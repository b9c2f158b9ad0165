import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BucketAnswer } from '../../src/ratelimit/limiter-store';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';
import { answerNow, promised, throwingCallback } from '../support/answer';
import { MAX_BATCH } from '../../src/ratelimit/redis-bucket-batch';
import { connectRedis, RedisLimiterStore, type RedisConnection } from '../../src/ratelimit/redis-store';
import { withRedisConnection, type RedisServer } from '../support/redis';

// Everything a bucket answer says, in one comparable list.
const fields = (d: BucketAnswer) => [d.allowed, d.remaining, d.resetMs, d.resetSeconds, d.retryAfterMs, d.retryAfterSeconds];

const test = suite<{ redis: RedisServer; conn: RedisConnection }>('Redis bucket script');

withRedisConnection(test);

test('the script answers exactly as the in-process store does, operation for operation', async ({ conn }) => {
  let clock = 1_000_000;
  const redis = new RedisLimiterStore(conn.buckets, 'test:eq:', () => clock);
  const memory = new MemoryLimiterStore({ max: 1000 });
  let x = 7;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const rules = [{ capacity: 3, windowMs: 10_000 }, { capacity: 30, windowMs: 60_000 }, { capacity: 1_000_000, windowMs: 86_400_000 }];
  for (let i = 0; i < 1500; i++) {
    clock += Math.floor(next() * 700);
    const k = Math.floor(next() * 6);
    const rule = rules[k % rules.length]!;
    const cost = 1 + Math.floor(next() * 3);
    const peek = next() < 0.2;
    const a = peek ? answerNow<BucketAnswer>((d) => memory.peek(`k${k}`, rule, clock, d)) : answerNow<BucketAnswer>((d) => memory.take(`k${k}`, rule, cost, clock, d));
    const b = peek ? await promised<BucketAnswer>((d) => redis.peek(`k${k}`, rule, clock, d)) : await promised<BucketAnswer>((d) => redis.take(`k${k}`, rule, cost, clock, d));
    assert.equal(fields(b), fields(a), `operation ${i}`);
  }
});

test('spending into debt answers exactly as the in-process store does, operation for operation', async ({ conn }) => {
  let clock = 1_000_000;
  const redis = new RedisLimiterStore(conn.buckets, 'test:debt:', () => clock);
  const memory = new MemoryLimiterStore({ max: 1000 });
  let x = 11;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const rules = [{ capacity: 3, windowMs: 10_000 }, { capacity: 30, windowMs: 60_000 }, { capacity: 7, windowMs: 1_000 }];
  let debts = 0;
  for (let i = 0; i < 1500; i++) {
    clock += Math.floor(next() * 700);
    const k = Math.floor(next() * 6);
    const rule = rules[k % rules.length]!;
    const cost = 1 + Math.floor(next() * 3);
    const kind = next();
    const a = kind < 0.2 ? answerNow<BucketAnswer>((d) => memory.peek(`k${k}`, rule, clock, d)) : kind < 0.5 ? answerNow<BucketAnswer>((d) => memory.spend(`k${k}`, rule, cost * 4, clock, d)) : answerNow<BucketAnswer>((d) => memory.take(`k${k}`, rule, cost, clock, d));
    const b = kind < 0.2 ? await promised<BucketAnswer>((d) => redis.peek(`k${k}`, rule, clock, d)) : kind < 0.5 ? await promised<BucketAnswer>((d) => redis.spend(`k${k}`, rule, cost * 4, clock, d)) : await promised<BucketAnswer>((d) => redis.take(`k${k}`, rule, cost, clock, d));
    if (a.remaining < 0) debts++;
    assert.equal(fields(b), fields(a), `operation ${i}`);
  }
  assert.ok(debts > 50, `only ${debts} answers in debt`);
});

test('a bucket in debt keeps its key until it is full again: two windows at the deepest', async ({ redis, conn }) => {
  const store = new RedisLimiterStore(conn.buckets, 'nettools:r:');
  const rule = { capacity: 5, windowMs: 1000 };
  const spent = await promised<BucketAnswer>((d) => store.spend('resolver:x', rule, 10, 0, d));
  assert.is(spent.remaining, -5);
  const ttl = Number(await redis.command('PTTL', 'nettools:r:resolver:x'));
  assert.ok(ttl > 1000 && ttl <= 2000, String(ttl));
});

test('bucket keys carry the prefix and a TTL, and vanish once full again', async ({ redis, conn }) => {
  const store = new RedisLimiterStore(conn.buckets, 'nettools:b:');
  await promised<BucketAnswer>((d) => store.take('198.51.100.7', { capacity: 5, windowMs: 1000 }, 1, 0, d));
  assert.equal(await redis.command('--scan', '--pattern', 'nettools:b:*'), 'nettools:b:198.51.100.7');
  const ttl = Number(await redis.command('PTTL', 'nettools:b:198.51.100.7'));
  assert.ok(ttl > 0 && ttl <= 200, String(ttl));
});

test('decisions on one key made in one loop turn see each other, exactly as the in-process store answers them in order', async ({ conn }) => {
  let clock = 5_000_000;
  const redis = new RedisLimiterStore(conn.buckets, 'test:turn:', () => clock);
  const memory = new MemoryLimiterStore({ max: 1000 });
  let x = 23;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const rule = { capacity: 4, windowMs: 2_000 };
  const expected: unknown[] = [];
  const answers: Array<Promise<unknown>> = [];
  for (let i = 0; i < 100; i++) {
    clock += Math.floor(next() * 150);
    const k = `k${Math.floor(next() * 3)}`;
    const kind = next();
    expected.push(fields(kind < 0.2 ? answerNow<BucketAnswer>((d) => memory.peek(k, rule, clock, d)) : kind < 0.4 ? answerNow<BucketAnswer>((d) => memory.spend(k, rule, 2, clock, d)) : answerNow<BucketAnswer>((d) => memory.take(k, rule, 1, clock, d))));
    answers.push((kind < 0.2 ? promised<BucketAnswer>((d) => redis.peek(k, rule, clock, d)) : kind < 0.4 ? promised<BucketAnswer>((d) => redis.spend(k, rule, 2, clock, d)) : promised<BucketAnswer>((d) => redis.take(k, rule, 1, clock, d))).then(fields));
  }
  const calls = conn.buckets.calls;
  assert.equal(await Promise.all(answers), expected);
  assert.is(conn.buckets.calls - calls, 1);
});

test('decisions made in one loop turn reach Redis as one script run per batch of at most MAX_BATCH', async ({ redis, conn }) => {
  const store = new RedisLimiterStore(conn.buckets, 'test:batch:');
  const runs = async () => Number(/cmdstat_evalsha:calls=(\d+)/.exec(await redis.command('INFO', 'commandstats'))?.[1] ?? 0);
  const before = await runs();
  const n = MAX_BATCH * 2 + 5;
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => promised<BucketAnswer>((d) => store.take(`c${i}`, { capacity: 5, windowMs: 1000 }, 1, 0, d))));
  assert.ok(answers.every((a) => a.allowed && a.remaining === 4));
  assert.is((await runs()) - before, 3);
});

test('a flood of takes on one bucket in one loop turn travels as one item and is answered take by take as in process', async ({ conn }) => {
  const clock = 9_000_000;
  const redis = new RedisLimiterStore(conn.buckets, 'test:flood:', () => clock);
  const memory = new MemoryLimiterStore({ max: 10 });
  const rule = { capacity: 20, windowMs: 60_000 };
  const expected = Array.from({ length: 50 }, () => fields(answerNow<BucketAnswer>((d) => memory.take('one', rule, 1, clock, d))));
  const items = conn.buckets.itemsSent;
  const answers = await Promise.all(Array.from({ length: 50 }, () => promised<BucketAnswer>((d) => redis.take('one', rule, 1, clock, d)).then(fields)));
  assert.equal(answers, expected);
  assert.is(answers.filter((a) => a[0] === true).length, 20);
  assert.is(conn.buckets.itemsSent - items, 1);
});

test('a spend or a look between takes on one bucket keeps them apart, in order', async ({ conn }) => {
  const clock = 9_000_000;
  const redis = new RedisLimiterStore(conn.buckets, 'test:apart:', () => clock);
  const memory = new MemoryLimiterStore({ max: 10 });
  const rule = { capacity: 3, windowMs: 1_000 };
  const ops = ['take', 'take', 'spend', 'take', 'peek', 'take', 'take'] as const;
  const run = (store: MemoryLimiterStore | RedisLimiterStore, op: (typeof ops)[number]) =>
    op === 'take' ? promised<BucketAnswer>((d) => store.take('k', rule, 1, clock, d)) : op === 'spend' ? promised<BucketAnswer>((d) => store.spend('k', rule, 2, clock, d)) : promised<BucketAnswer>((d) => store.peek('k', rule, clock, d));
  const expected = await Promise.all(ops.map((op) => run(memory, op).then(fields)));
  const items = conn.buckets.itemsSent;
  const answers = await Promise.all(ops.map((op) => run(redis, op).then(fields)));
  assert.equal(answers, expected);
  assert.is(conn.buckets.itemsSent - items, 5);
});

test('a callback that throws is called once, every other decision of its batch is still answered, and the throw comes out after', async ({ conn }) => {
  const store = new RedisLimiterStore(conn.buckets, 'test:throws:');
  const rule = { capacity: 5, windowMs: 1000 };
  const callback = throwingCallback();
  const surfaced = new Promise<unknown>((resolve) => process.once('unhandledRejection', resolve));
  const before = promised<BucketAnswer>((d) => store.take('one', rule, 1, 0, d));
  store.take('one', rule, 1, 0, callback.done);
  const after = [promised<BucketAnswer>((d) => store.take('one', rule, 1, 0, d)), promised<BucketAnswer>((d) => store.spend('other', rule, 1, 0, d))];
  assert.equal((await Promise.all([before, ...after])).map((a) => a.remaining), [4, 2, 4]);
  assert.match(String(await surfaced), 'a bug in the callback');
  assert.is(callback.calls, 1);
});

test('a Redis that is gone fails every decision of the batch, and none waits', async () => {
  const gone = connectRedis('redis://127.0.0.1:1');
  try {
    const store = new RedisLimiterStore(gone.buckets, 'test:gone:');
    const outcomes = await Promise.allSettled([promised<BucketAnswer>((d) => store.take('a', { capacity: 5, windowMs: 1000 }, 1, 0, d)), promised<BucketAnswer>((d) => store.spend('b', { capacity: 5, windowMs: 1000 }, 1, 0, d))]);
    assert.equal(outcomes.map((o) => o.status), ['rejected', 'rejected']);
  } finally {
    await gone.close();
  }
});

test.run();
