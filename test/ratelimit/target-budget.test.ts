import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';
import { TargetBudget, type TargetReservation } from '../../src/ratelimit/target-budget';
import type { BucketAnswer } from '../../src/ratelimit/limiter-store';
import { fakeClock } from '../support/fake-clock';
import { answerNow } from '../support/answer';
import { parseAddress, type Address } from '../../src/net/address';

// The target as the ping tool hands it over: parsed once, upstream of the budget.
const ip = (text: string): Address => parseAddress(text) as Address;

test('echoes within the per-second budget are granted', () => {
  const budget = new TargetBudget({ limit: 20, now: fakeClock().now });
  assert.equal(answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 10, d)), { granted: true, remaining: 10 });
  assert.equal(answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 10, d)), { granted: true, remaining: 0 });
});

test('echoes beyond the budget are refused whole, with a Retry-After', () => {
  const budget = new TargetBudget({ limit: 20, now: fakeClock().now });
  answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 10, d));
  answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 6, d));
  assert.equal(answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 10, d)), { granted: false, reason: 'budget-spent', retryAfterSeconds: 1, limit: 20 });
  assert.equal(answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 4, d)), { granted: true, remaining: 0 });
});

test('the budget is shared by all clients but separate per target', () => {
  const budget = new TargetBudget({ limit: 10, now: fakeClock().now });
  assert.ok(answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 10, d)).granted);
  assert.not.ok(answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 1, d)).granted);
  assert.ok(answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.2'), 10, d)).granted);
});

test('spellings of one address share one budget', () => {
  const budget = new TargetBudget({ limit: 10, now: fakeClock().now });
  assert.ok(answerNow<TargetReservation>((d) => budget.reserve(ip('2001:db8::1'), 5, d)).granted);
  assert.ok(answerNow<TargetReservation>((d) => budget.reserve(ip('2001:DB8:0:0:0:0:0:1'), 5, d)).granted);
  assert.not.ok(answerNow<TargetReservation>((d) => budget.reserve(ip('[2001:db8::1]'), 1, d)).granted);
  assert.ok(answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 10, d)).granted);
  assert.not.ok(answerNow<TargetReservation>((d) => budget.reserve(ip('::ffff:192.0.2.1'), 1, d)).granted);
});

test('a refused ping waiting its Retry-After is granted', () => {
  const clock = fakeClock();
  const budget = new TargetBudget({ limit: 7, now: clock.now });
  answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 7, d));
  clock.advance(300);
  const refused = answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 5, d));
  assert.ok(!refused.granted && refused.reason === 'budget-spent');
  if (!refused.granted && refused.reason === 'budget-spent') clock.advance(refused.retryAfterSeconds * 1000);
  assert.ok(answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 5, d)).granted);
});

test('the budget refills continuously within the second', () => {
  const clock = fakeClock();
  const budget = new TargetBudget({ limit: 10, now: clock.now });
  answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 10, d));
  clock.advance(499);
  assert.not.ok(answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 5, d)).granted);
  clock.advance(1);
  assert.ok(answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 5, d)).granted);
});

test('a ping asking for more echoes than one second\'s budget is refused as over-budget', () => {
  const budget = new TargetBudget({ limit: 5, now: fakeClock().now });
  assert.equal(answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 6, d)), { granted: false, reason: 'over-budget', limit: 5 });
  assert.ok(answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 5, d)).granted);
});

test('a non-positive or fractional echo count is a programming error', () => {
  const budget = new TargetBudget({ limit: 5, now: fakeClock().now });
  assert.throws(() => answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 0, d)), RangeError);
  assert.throws(() => answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 1.5, d)), RangeError);
});

test('many distinct targets keep the cache at its max', () => {
  const budget = new TargetBudget({ limit: 5, max: 1_000, now: fakeClock().now });
  for (let i = 0; i < 5_000; i++) answerNow<TargetReservation>((d) => budget.reserve(ip(`198.18.${i >> 8}.${i & 0xff}`), 1, d));
  assert.is(budget.size, 1_000);
});

test('an idle target is forgotten once its budget is full again', () => {
  const clock = fakeClock();
  const store = new MemoryLimiterStore({ max: 100, now: clock.now });
  const budget = new TargetBudget({ limit: 10, store, now: clock.now });
  answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 10, d));
  clock.advance(1_001);
  assert.ok(store.prune());
  assert.is(budget.size, 0);
});

test('without an injected clock the budget runs on the monotonic clock', () => {
  const budget = new TargetBudget({ limit: 3 });
  for (let i = 0; i < 3; i++) assert.ok(answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 1, d)).granted);
  assert.not.ok(answerNow<TargetReservation>((d) => budget.reserve(ip('192.0.2.1'), 3, d)).granted);
});

test.run();
