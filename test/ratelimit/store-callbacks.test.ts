import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { BucketAnswer, LimiterStore } from '../../src/ratelimit/limiter-store';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';
import { SharedLimiterStore, sharedLimiterMemory } from '../../src/ratelimit/shared-limiter-store';
import { answerNow, throwingCallback } from '../support/answer';

// The stores of this process answer through their callback once, before returning; a callback that
// throws finds the bucket already written, and is not called again.
const RULE = { capacity: 5, windowMs: 1000 };
const stores: Array<[string, () => LimiterStore]> = [
  ['the in-process store', () => new MemoryLimiterStore({ max: 10 })],
  ['the shared-memory store', () => new SharedLimiterStore(sharedLimiterMemory(64))],
];

for (const [name, open] of stores) {
  test(`${name} answers take, spend and peek once each, before returning`, () => {
    const store = open();
    const answers: Array<BucketAnswer | Error> = [];
    store.take('k', RULE, 1, 0, (a) => void answers.push(a));
    store.spend('k', RULE, 2, 0, (a) => void answers.push(a));
    store.peek('k', RULE, 0, (a) => void answers.push(a));
    assert.equal(answers.map((a) => (a as BucketAnswer).remaining), [4, 2, 2]);
  });

  test(`${name} keeps a take whose callback throws, and does not call it again`, () => {
    const store = open();
    const callback = throwingCallback();
    assert.throws(() => store.take('k', RULE, 2, 0, callback.done), /a bug in the callback/);
    assert.is(callback.calls, 1);
    assert.is(answerNow<BucketAnswer>((d) => store.peek('k', RULE, 0, d)).remaining, 3);
    assert.is(answerNow<BucketAnswer>((d) => store.take('k', RULE, 3, 0, d)).remaining, 0);
  });

  test(`${name} keeps a spend whose callback throws, and does not call it again`, () => {
    const store = open();
    const callback = throwingCallback();
    assert.throws(() => store.spend('k', RULE, 7, 0, callback.done), /a bug in the callback/);
    assert.is(callback.calls, 1);
    assert.is(answerNow<BucketAnswer>((d) => store.peek('k', RULE, 0, d)).remaining, -2);
  });
}

test.run();
