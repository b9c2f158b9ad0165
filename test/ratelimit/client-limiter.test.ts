import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ClientLimiter, DEFAULT_CLIENT_CACHE_MAX, type RateDecision } from '../../src/ratelimit/client-limiter';
import { answerNow } from '../support/answer';
import { fakeClock } from '../support/fake-clock';

const RATE = { capacity: 30, windowMs: 60_000 };

// One token of `key`'s bucket, as a store in this process answers it: before the call returns.
function check(limiter: ClientLimiter, key: string, rate = RATE): RateDecision {
  return answerNow<RateDecision>((d) => limiter.check(key, undefined, rate, d));
}

function spend(limiter: ClientLimiter, key: string, times: number, rate = RATE): void {
  for (let i = 0; i < times; i++) check(limiter, key, rate);
}

test('the decision carries the limit and window the headers need', () => {
  const limiter = new ClientLimiter({ now: fakeClock().now });
  const decision = check(limiter, '192.0.2.1');
  assert.is(decision.allowed, true);
  assert.is(decision.limit, 30);
  assert.is(decision.windowMs, 60_000);
  assert.is(decision.remaining, 29);
  assert.is(decision.resetSeconds, 2);
});

test('each client key has its own bucket', () => {
  const limiter = new ClientLimiter({ now: fakeClock().now });
  spend(limiter, '192.0.2.1', 30);
  assert.not.ok(check(limiter, '192.0.2.1').allowed);
  assert.ok(check(limiter, '192.0.2.2').allowed);
});

test('a refused client that waits Retry-After seconds is let in', () => {
  const clock = fakeClock();
  const limiter = new ClientLimiter({ now: clock.now });
  const rate = { capacity: 3, windowMs: 10_000 };
  spend(limiter, 'c', 3, rate);
  clock.advance(1_234);
  const refused = check(limiter, 'c', rate);
  assert.not.ok(refused.allowed);
  assert.is(refused.retryAfterSeconds, 3); // 3334 ms per token, 1234 already refilled
  clock.advance(refused.retryAfterSeconds * 1000);
  assert.ok(check(limiter, 'c', rate).allowed);
});

test('an entry is dropped once its bucket would be full again, and the client then starts full', () => {
  const clock = fakeClock();
  const limiter = new ClientLimiter({ now: clock.now });
  spend(limiter, 'c', 10);
  clock.advance(20_000); // 10 tokens need 20 s; the cache drops entries strictly older than their TTL
  assert.not.ok(limiter.prune());
  assert.is(limiter.size, 1);
  clock.advance(1);
  assert.ok(limiter.prune());
  assert.is(limiter.size, 0);
  assert.is(check(limiter, 'c').remaining, 29);
});

test('an evicted client starts again from a full bucket', () => {
  const limiter = new ClientLimiter({ max: 2, now: fakeClock().now });
  spend(limiter, 'a', 30);
  check(limiter, 'b');
  check(limiter, 'c'); // evicts 'a', the least recently used
  assert.is(limiter.size, 2);
  assert.is(check(limiter, 'a').remaining, 29);
});

test('the default cache size is bounded', () => {
  const limiter = new ClientLimiter({});
  assert.is(limiter.max, DEFAULT_CLIENT_CACHE_MAX);
});

test('a flood of 200,000 distinct clients keeps the cache at max and the heap bounded', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const max = 10_000;
  const limiter = new ClientLimiter({ max, now: fakeClock().now });
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 200_000; i++) {
    // Distinct IPv6 /64 keys, as an attacker rotating prefixes would produce.
    const decision = check(limiter, `2001:db8:${(i >>> 16).toString(16)}:${(i & 0xffff).toString(16)}::/64`);
    assert.ok(decision.allowed);
  }
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  assert.is(limiter.size, max);
  // 10,000 entries cost a few MB at most; keeping all 200,000 would cost tens of MB.
  assert.ok(grown < 16 * 1024 * 1024, `heap grew by ${grown} bytes`);
});

test.run();
