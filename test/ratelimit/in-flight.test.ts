import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IDLE_ENTRIES_KEPT, InFlight } from '../../src/ratelimit/in-flight';

test('a client gets up to its cap of slots, then too-many-concurrent', () => {
  const inFlight = new InFlight({ perClient: 2, global: 10 });
  assert.is(inFlight.acquire('a'), null);
  assert.is(inFlight.acquire('a'), null);
  assert.equal(inFlight.acquire('a'), { code: 'too-many-concurrent', limit: 2 });
});

test('releasing a slot lets the client in again', () => {
  const inFlight = new InFlight({ perClient: 1, global: 10 });
  assert.is(inFlight.acquire('a'), null);
  assert.ok(inFlight.acquire('a'));
  inFlight.release('a');
  assert.is(inFlight.acquire('a'), null);
});

test('one client at its cap does not hold back another', () => {
  const inFlight = new InFlight({ perClient: 1, global: 10 });
  inFlight.acquire('a');
  assert.is(inFlight.acquire('b'), null);
});

test('the server-wide cap answers overloaded with a Retry-After', () => {
  const inFlight = new InFlight({ perClient: 5, global: 2, overloadedRetryAfterSeconds: 3 });
  inFlight.acquire('a');
  inFlight.acquire('b');
  assert.equal(inFlight.acquire('c'), { code: 'overloaded', limit: 2, retryAfterSeconds: 3 });
});

test('overloaded defaults to a Retry-After of one second', () => {
  const inFlight = new InFlight({ perClient: 1, global: 0 });
  assert.equal(inFlight.acquire('a'), { code: 'overloaded', limit: 0, retryAfterSeconds: 1 });
});

test('a release for a key holding nothing frees nothing', () => {
  const inFlight = new InFlight({ perClient: 2, global: 10 });
  inFlight.acquire('a');
  inFlight.release('b');
  inFlight.release('a');
  inFlight.release('a');
  assert.is(inFlight.count('a'), 0);
  assert.is(inFlight.total, 0);
});

test('counts follow acquires and releases per client and in total', () => {
  const inFlight = new InFlight({ perClient: 3, global: 10 });
  for (const key of ['a', 'a', 'b', 'a']) inFlight.acquire(key);
  inFlight.release('a');
  assert.is(inFlight.count('a'), 2);
  assert.is(inFlight.count('b'), 1);
  assert.is(inFlight.total, 3);
});

test('a client with nothing in flight is no longer counted as a client', () => {
  const inFlight = new InFlight({ perClient: 2, global: 10 });
  inFlight.acquire('a');
  inFlight.acquire('b');
  inFlight.release('a');
  assert.is(inFlight.clients, 1);
  inFlight.release('b');
  assert.is(inFlight.clients, 0);
  assert.is(inFlight.total, 0);
});

test('a returning client starts from zero after its requests ended', () => {
  const inFlight = new InFlight({ perClient: 1, global: 10 });
  inFlight.acquire('a');
  inFlight.release('a');
  assert.is(inFlight.acquire('a'), null);
  assert.ok(inFlight.acquire('a'));
  assert.is(inFlight.clients, 1);
});

test('idle entries are bounded: many one-request clients leave at most IDLE_ENTRIES_KEPT behind', () => {
  const inFlight = new InFlight({ perClient: 1, global: 10 });
  inFlight.acquire('busy');
  for (let i = 0; i < IDLE_ENTRIES_KEPT * 3 + 5; i++) {
    assert.is(inFlight.acquire(`c${i}`), null);
    inFlight.release(`c${i}`);
    assert.ok(inFlight.entries <= IDLE_ENTRIES_KEPT + 1);
  }
  assert.is(inFlight.count('busy'), 1);
  assert.is(inFlight.clients, 1);
  assert.is(inFlight.total, 1);
});

test('a refusal holds no slot', () => {
  const inFlight = new InFlight({ perClient: 1, global: 1 });
  inFlight.acquire('a');
  inFlight.acquire('a');
  inFlight.acquire('b');
  assert.is(inFlight.total, 1);
  assert.is(inFlight.count('b'), 0);
});

test.run();
