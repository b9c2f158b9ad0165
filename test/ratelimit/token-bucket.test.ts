import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fullBucket, spend, take, type BucketParams, type BucketState } from '../../src/ratelimit/token-bucket';

const RATE: BucketParams = { capacity: 30, windowMs: 60_000 }; // 30/60s: one token every 2 s

function drain(params: BucketParams, now: number): BucketState {
  let state: BucketState | undefined;
  for (let i = 0; i < params.capacity; i++) {
    const decision = take(params, state, now);
    assert.ok(decision.allowed);
    state = decision.state;
  }
  return state!;
}

test('a new client has a full bucket: the first request leaves capacity - 1', () => {
  const decision = take(RATE, undefined, 1_000);
  assert.ok(decision.allowed);
  assert.is(decision.remaining, 29);
  assert.is(decision.retryAfterSeconds, 0);
});

test('a full burst of capacity requests is allowed at one instant, the next is refused', () => {
  const state = drain(RATE, 5_000);
  const decision = take(RATE, state, 5_000);
  assert.not.ok(decision.allowed);
  assert.is(decision.remaining, 0);
});

test('a refusal takes no token', () => {
  const state = drain(RATE, 0);
  const refused = take(RATE, state, 0);
  assert.equal(refused.state, state);
});

test('tokens refill continuously: half a window brings back half the bucket', () => {
  const state = drain(RATE, 0);
  const decision = take(RATE, state, 30_000);
  assert.ok(decision.allowed);
  assert.is(decision.remaining, 14); // 15 refilled, one taken
});

test('refill is capped at capacity however long the client was idle', () => {
  const state = drain(RATE, 0);
  const decision = take(RATE, state, 10 * 24 * 3_600_000);
  assert.is(decision.remaining, 29);
});

test('just short of one token\'s refill time the client is still refused', () => {
  const state = drain(RATE, 0);
  assert.not.ok(take(RATE, state, 1_999).allowed);
  assert.ok(take(RATE, state, 2_000).allowed);
});

test('Retry-After is rounded up to whole seconds', () => {
  const params = { capacity: 3, windowMs: 10_000 }; // one token per 3333.3 ms
  const state = drain(params, 0);
  const refused = take(params, state, 0);
  assert.is(refused.retryAfterMs, 3_334);
  assert.is(refused.retryAfterSeconds, 4);
});

test('a client that waits exactly Retry-After seconds is let in, for many rates and refusal times', () => {
  const rates: BucketParams[] = [
    { capacity: 30, windowMs: 60_000 },
    { capacity: 3, windowMs: 10_000 },
    { capacity: 7, windowMs: 1_000 },
    { capacity: 1, windowMs: 3_600_000 },
    { capacity: 1000, windowMs: 1_000 },
    { capacity: 13, windowMs: 999 },
  ];
  for (const params of rates) {
    let state = drain(params, 0);
    for (let now = 0; now < 5_000; now += 37) {
      const refused = take(params, state, now);
      if (refused.allowed) {
        state = refused.state;
        continue;
      }
      assert.ok(refused.retryAfterSeconds >= 1);
      const later = take(params, refused.state, now + refused.retryAfterSeconds * 1000);
      assert.ok(later.allowed, `${params.capacity}/${params.windowMs}ms refused at ${now}`);
    }
  }
});

test('reset is the time until the bucket is full again, rounded up to seconds', () => {
  const first = take(RATE, undefined, 0);
  assert.is(first.resetMs, 2_000);
  assert.is(first.resetSeconds, 2);
  const state = drain(RATE, 0);
  const refused = take(RATE, state, 500);
  assert.is(refused.resetMs, 59_500);
  assert.is(refused.resetSeconds, 60);
});

test('a clock that goes backwards refills nothing and does not move the bucket\'s time back', () => {
  const state = drain(RATE, 10_000);
  const decision = take(RATE, state, 5_000);
  assert.not.ok(decision.allowed);
  assert.is(decision.state.updatedMs, 10_000);
});

test('a cost of several tokens is taken whole or not at all', () => {
  const params = { capacity: 10, windowMs: 1_000 };
  const first = take(params, undefined, 0, 7);
  assert.ok(first.allowed);
  assert.is(first.remaining, 3);
  const second = take(params, first.state, 0, 4);
  assert.not.ok(second.allowed);
  assert.is(second.remaining, 3);
  assert.is(second.retryAfterMs, 100);
  assert.ok(take(params, first.state, 100, 4).allowed);
});

test('fractional clock readings are floored to whole milliseconds', () => {
  assert.equal(fullBucket(RATE, 12.9), { level: 30 * 60_000, updatedMs: 12 });
});

const QPS: BucketParams = { capacity: 10, windowMs: 1_000 }; // 10 a second: one token every 100 ms

test('spend takes the whole cost even when the bucket holds less: the rest is a debt', () => {
  const spent = spend(QPS, drain(QPS, 0), 0, 3);
  assert.ok(spent.allowed);
  assert.is(spent.remaining, -3);
  assert.is(spent.state.level, -3 * QPS.windowMs);
});

test('a debt is never deeper than one window: spend stops at -capacity', () => {
  const spent = spend(QPS, drain(QPS, 0), 0, 25);
  assert.is(spent.remaining, -10);
  assert.is(spend(QPS, spent.state, 0, 1).remaining, -10);
});

test('while in debt, take is refused, and its Retry-After covers the debt and the new cost', () => {
  const owing = spend(QPS, drain(QPS, 0), 0, 3).state;
  const refused = take(QPS, owing, 0, 2);
  assert.not.ok(refused.allowed);
  assert.is(refused.retryAfterMs, 500); // 3 owed + 2 asked, one every 100 ms
  assert.is(refused.retryAfterSeconds, 1);
  assert.not.ok(take(QPS, owing, 499, 2).allowed);
  assert.ok(take(QPS, owing, 500, 2).allowed);
});

test('a bucket in debt cannot be looked at as open: a peek (cost 0) is refused until the debt is repaid', () => {
  const owing = spend(QPS, drain(QPS, 0), 0, 2).state;
  assert.not.ok(take(QPS, owing, 199, 0).allowed);
  assert.ok(take(QPS, owing, 200, 0).allowed);
});

test('a bucket at its deepest debt is full again two windows later, and says so in resetMs', () => {
  const deepest = spend(QPS, drain(QPS, 0), 0, 10);
  assert.is(deepest.resetMs, 2 * QPS.windowMs);
  assert.is(take(QPS, deepest.state, 2 * QPS.windowMs - 1, 0).remaining, 9);
  assert.is(take(QPS, deepest.state, 2 * QPS.windowMs, 0).remaining, 10);
  assert.is(take(QPS, deepest.state, 10 * 24 * 3_600_000, 0).remaining, 10);
});

test('spend on a bucket with room is an ordinary take', () => {
  const spent = spend(QPS, undefined, 0, 4);
  assert.equal(spent, take(QPS, undefined, 0, 4));
});

test.run();
