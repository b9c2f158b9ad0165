import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SharedInFlight, sharedInFlightMemory } from '../../src/ratelimit/shared-in-flight';
import { SharedSlots, slotMemory } from '../../src/ratelimit/shared-slots';

// A worker thread that ends never releases what it held; the supervisor gives it back before the
// replacement starts. Two SharedInFlight views on one memory stand for workers 0 and 1.

test('the requests a dead worker held in flight are given back to their clients and to the total', () => {
  const memory = sharedInFlightMemory(10, 2);
  const w0 = new SharedInFlight(memory, 3, 10, 1, 0);
  const w1 = new SharedInFlight(memory, 3, 10, 1, 1);
  assert.is(w0.acquire('a'), null);
  assert.is(w0.acquire('a'), null);
  assert.is(w0.acquire('b'), null);
  assert.is(w1.acquire('a'), null);
  assert.equal(w1.acquire('a'), { code: 'too-many-concurrent', limit: 3 });
  assert.is(w1.forgetWorker(0), 3);
  assert.equal([w1.total, w1.clients], [1, 1]);
  assert.is(w1.acquire('a'), null);
  assert.is(w1.acquire('a'), null);
  assert.equal(w1.acquire('a'), { code: 'too-many-concurrent', limit: 3 });
});

test("forgetting a dead worker leaves the live workers' requests, and their releases still count", () => {
  const memory = sharedInFlightMemory(10, 2);
  const w0 = new SharedInFlight(memory, 3, 10, 1, 0);
  const w1 = new SharedInFlight(memory, 3, 10, 1, 1);
  w0.acquire('a');
  w1.acquire('a');
  w1.acquire('c');
  w1.forgetWorker(0);
  assert.equal([w1.total, w1.clients], [2, 2]);
  w1.release('a');
  w1.release('c');
  assert.equal([w1.total, w1.clients], [0, 0]);
});

test('a worker releases only what it holds itself', () => {
  const memory = sharedInFlightMemory(10, 2);
  const w0 = new SharedInFlight(memory, 3, 10, 1, 0);
  const w1 = new SharedInFlight(memory, 3, 10, 1, 1);
  w0.acquire('a');
  w1.release('a');
  assert.equal([w0.total, w0.clients], [1, 1]);
});

test('the locks a dead thread held are broken, and only those', () => {
  const memory = slotMemory(64);
  const locks = new Int32Array(memory.locks);
  Atomics.store(locks, 0, 3); // thread 3 died inside a critical section of group 0
  Atomics.store(locks, 1, 2); // thread 2 is inside one of group 1
  assert.is(SharedSlots.breakLocks(memory, 3), 1);
  assert.equal([Atomics.load(locks, 0), Atomics.load(locks, 1)], [0, 2]);
  const ran = new SharedSlots(memory, 1).locked(0, () => 'entered');
  assert.is(ran, 'entered');
});

test('a thread holding a lock marks it with its own id', () => {
  const memory = slotMemory(64);
  const locks = new Int32Array(memory.locks);
  const seen = new SharedSlots(memory, 5).locked(0, () => Atomics.load(locks, 0));
  assert.equal([seen, Atomics.load(locks, 0)], [5, 0]);
});

test.run();
