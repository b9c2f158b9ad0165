import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnswerCallback, LimiterStore } from '../../src/ratelimit/limiter-store';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';
import { ResolverBudget, type ResolverReservation } from '../../src/ratelimit/resolver-budget';
import { answerNow } from '../support/answer';

// The budget answers through its callback once, as its store does: a store's Error is passed on, once,
// whether it comes while looking at the resolvers or while taking from them.
const a = { id: 'a', address: '127.0.0.1', port: 53 };
const b = { id: 'b', address: '127.0.0.2', port: 53 };

// Buckets in this process whose `failing` operation answers an Error instead.
function failingOn(failing: 'peek' | 'take'): LimiterStore {
  const inner = new MemoryLimiterStore({ max: 10 });
  const down = (...args: unknown[]) => (args.at(-1) as AnswerCallback)(new Error(`${failing} failed`));
  return {
    take: failing === 'take' ? down : (k, r, c, n, done) => inner.take(k, r, c, n, done),
    spend: (k, r, c, n, done) => inner.spend(k, r, c, n, done),
    peek: failing === 'peek' ? down : (k, r, n, done) => inner.peek(k, r, n, done),
    size: 0,
    prune: () => false,
  };
}

for (const failing of ['peek', 'take'] as const) {
  test(`a store whose ${failing} fails is answered as that Error, once`, () => {
    const budget = new ResolverBudget(failingOn(failing), 10, () => 1_000_000);
    const answers: Array<ResolverReservation | Error> = [];
    budget.reserve([[a, 1], [b, 1]], (r) => void answers.push(r));
    assert.is(answers.length, 1);
    assert.match(String(answers[0]), `${failing} failed`);
  });
}

test("the remaining queries of a resolver whose store fails are that Error", () => {
  const budget = new ResolverBudget(failingOn('peek'), 10, () => 1_000_000);
  assert.throws(() => answerNow<number>((d) => budget.remaining(a, d)), /peek failed/);
});

test('a resolver asked more than a second of its budget is refused without asking the store', () => {
  const budget = new ResolverBudget(failingOn('peek'), 10, () => 1_000_000);
  assert.equal(answerNow<ResolverReservation>((d) => budget.reserve([[a, 11]], d)), { granted: false, resolver: 'a', retryAfterSeconds: 1 });
});

test.run();
