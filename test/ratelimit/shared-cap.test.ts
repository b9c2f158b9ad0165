import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SharedCap, sharedCapMemory } from '../../src/ratelimit/shared-cap';

test('two threads taking from one memory share the cap, and a place given back can be taken again', () => {
  const memory = sharedCapMemory(2);
  const a = new SharedCap(memory, 3, 0);
  const b = new SharedCap(memory, 3, 1);
  assert.equal([a.take(), b.take(), b.take(), a.take(), b.take()], [true, true, true, false, false]);
  assert.is(a.total, 3);
  a.give();
  assert.is(b.total, 2);
  assert.ok(b.take());
  assert.not.ok(a.take());
});

test('a thread gives back only places it took', () => {
  const memory = sharedCapMemory(2);
  const a = new SharedCap(memory, 2, 0);
  const b = new SharedCap(memory, 2, 1);
  assert.ok(b.take());
  a.give();
  assert.is(a.total, 1);
});

test("a dead worker's places are given back by forgetWorker, the others' kept", () => {
  const memory = sharedCapMemory(2);
  const a = new SharedCap(memory, 4, 0);
  const b = new SharedCap(memory, 4, 1);
  a.take();
  b.take();
  b.take();
  assert.is(new SharedCap(memory, 4, 2).forgetWorker(1), 2);
  assert.is(a.total, 1);
  assert.is(new SharedCap(memory, 4, 2).forgetWorker(1), 0);
});

test.run();
