import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BucketAnswer } from '../../src/ratelimit/limiter-store';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';
import { answerNow, promised } from '../support/answer';
import { FUTURE_SKEW_MS } from '../../src/ratelimit/redis-bucket-script';
import { RedisLimiterStore, type RedisConnection } from '../../src/ratelimit/redis-store';
import { withRedisConnection, type RedisServer } from '../support/redis';

// A bucket's key holding something the script never writes (by hand, another program, an older version):
// that client gets a full bucket, the key is rewritten as a bucket with a TTL, and the other clients of
// the same script run are answered as if nothing were wrong. Run against real Redis, with the store's
// own 50 ms timeout, so a script that errs or holds Redis too long fails the whole batch here.
const test = suite<{ redis: RedisServer; conn: RedisConnection }>('Redis bucket script: values it never writes');

withRedisConnection(test);

const fields = (d: BucketAnswer) => [d.allowed, d.remaining, d.resetMs, d.resetSeconds, d.retryAfterMs, d.retryAfterSeconds];
const outcome = (o: PromiseSettledResult<BucketAnswer>) => (o.status === 'fulfilled' ? fields(o.value) : `failed: ${(o.reason as Error).message}`);

const CLOCK = 50_000_000;
// A window long enough that one take's TTL is whole seconds (TTL, not only PTTL, above 0).
const RULE = { capacity: 5, windowMs: 60_000 };
const FULL = RULE.capacity * RULE.windowMs;
const YEAR_MS = 365 * 86_400_000;

let prefixes = 0;

// In one script run: a new client, a client whose bucket is in use, and the client whose key `plant` fills.
async function takeAround({ redis, conn }: { redis: RedisServer; conn: RedisConnection }, plant: (key: string) => Promise<unknown>): Promise<void> {
  const prefix = `test:bad:${prefixes++}:`;
  const store = new RedisLimiterStore(conn.buckets, prefix, () => CLOCK);
  const memory = new MemoryLimiterStore({ max: 10 });
  for (let i = 0; i < 3; i++) {
    await promised<BucketAnswer>((d) => store.take('worn', RULE, 1, CLOCK, d));
    answerNow<BucketAnswer>((d) => memory.take('worn', RULE, 1, CLOCK, d));
  }
  await plant(prefix + 'victim');
  const calls = conn.buckets.calls;
  const outcomes = await Promise.allSettled(['new', 'victim', 'worn'].map((k) => promised<BucketAnswer>((d) => store.take(k, RULE, 1, CLOCK, d))));
  assert.is(conn.buckets.calls - calls, 1, 'one script run');
  assert.equal(outcomes.map(outcome), ['new', 'victim', 'worn'].map((k) => fields(answerNow<BucketAnswer>((d) => memory.take(k, RULE, 1, CLOCK, d)))));
  // Exactly what one take leaves of a full bucket, in the script's format, expiring.
  assert.is(await redis.command('GET', prefix + 'victim'), `${FULL - RULE.windowMs} ${CLOCK}`);
  const ttl = Number(await redis.command('TTL', prefix + 'victim'));
  assert.ok(ttl > 0 && ttl <= 12, `TTL ${ttl}`);
}

const NOT_BUCKETS: Array<[string, string]> = [
  ['a level far below any debt', '-9999999999999999999999 0'],
  ['a level with more digits than a double holds', `-${'9'.repeat(400)} ${CLOCK}`],
  ['a debt a hundred times the capacity', `-${FULL * 100} ${CLOCK}`],
  ['a stamp ten years ahead', `0 ${CLOCK + 10 * YEAR_MS}`],
  ['a stamp just beyond the clock-skew allowance', `0 ${CLOCK + FUTURE_SKEW_MS + 1}`],
  ['a stamp with more digits than a double holds', `0 ${'9'.repeat(400)}`],
  ['a zero-padded value longer than any bucket', `${'0'.repeat(60)}1 ${CLOCK}`],
  ['a level a thousand times the capacity', `${FULL * 1000} ${CLOCK}`],
  ['NaN-like text', 'NaN NaN'],
  ['an empty string', ''],
  ['a string of a thousand fields', '1 '.repeat(1000)],
];

for (const [what, value] of NOT_BUCKETS) {
  test(`a key holding ${what} is a full bucket, rewritten with a TTL, and its batch's other clients are answered`, (ctx) =>
    takeAround(ctx, (key) => ctx.redis.command('SET', key, value)));
}

// Not garbage, only old: refilling two windows fills any bucket, so the stamp's age needs no limit.
test("a key holding the deepest debt stamped at the epoch is a full bucket, rewritten with a TTL, and its batch's other clients are answered", (ctx) =>
  takeAround(ctx, (key) => ctx.redis.command('SET', key, `-${FULL} 0`)));

test("a key of another type (a hash) is a full bucket, replaced by one with a TTL, and its batch's other clients are answered", (ctx) =>
  takeAround(ctx, (key) => ctx.redis.command('HSET', key, 'level', '5', 'updated', '0')));

// Freeing a million fields takes Redis about 300 ms here: inside the script, past the store's 50 ms.
const MILLION_FIELDS = `for i = 0, 999 do
  local a = {}
  for j = 1, 1000 do a[#a + 1] = i * 1000 + j; a[#a + 1] = 'x' end
  redis.call('HSET', KEYS[1], unpack(a))
end`;

test("a hash of a million fields is replaced without holding Redis past the timeout, and its batch's other clients are answered", (ctx) =>
  takeAround(ctx, async (key) => {
    await ctx.redis.command('EVAL', MILLION_FIELDS, '1', key);
    assert.is(await ctx.redis.command('HLEN', key), '1000000');
  }));

test('looks at values the script never writes answer full buckets and remove the keys, and their batch is answered', async ({ redis, conn }) => {
  const store = new RedisLimiterStore(conn.buckets, 'test:bad:look:', () => CLOCK);
  const memory = new MemoryLimiterStore({ max: 10 });
  for (const [i, [, value]] of NOT_BUCKETS.entries()) await redis.command('SET', `test:bad:look:${i}`, value);
  const looks = NOT_BUCKETS.map((_, i) => promised<BucketAnswer>((d) => store.peek(String(i), RULE, CLOCK, d)));
  const answers = await Promise.allSettled([...looks, promised<BucketAnswer>((d) => store.take('new', RULE, 1, CLOCK, d))]);
  const expected = [...NOT_BUCKETS.map((_, i) => fields(answerNow<BucketAnswer>((d) => memory.peek(String(i), RULE, CLOCK, d)))), fields(answerNow<BucketAnswer>((d) => memory.take('new', RULE, 1, CLOCK, d)))];
  assert.equal(answers.map(outcome), expected);
  assert.is(await redis.command('--scan', '--pattern', 'test:bad:look:*'), 'test:bad:look:new');
});

test('a stamp ahead of the clock within the allowance is believed: the bucket refills nothing until then', async ({ redis, conn }) => {
  const store = new RedisLimiterStore(conn.buckets, 'test:bad:skew:', () => CLOCK);
  const stamp = CLOCK + FUTURE_SKEW_MS;
  await redis.command('SET', 'test:bad:skew:k', `0 ${stamp}`);
  const answer = await promised<BucketAnswer>((d) => store.take('k', RULE, 1, CLOCK, d));
  assert.equal([answer.allowed, answer.remaining], [false, 0]);
  assert.is(await redis.command('GET', 'test:bad:skew:k'), `0 ${stamp}`);
});

test.run();
