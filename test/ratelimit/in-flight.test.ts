import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { InFlight, type Acquired } from '../../src/ratelimit/in-flight';

function held(result: Acquired): () => void {
  if (!result.ok) throw new Error(`expected a slot, got ${result.code}`);
  return result.release;
}

test('a client gets up to its cap of slots, then too-many-concurrent', () => {
  const inFlight = new InFlight({ perClient: 2, global: 10 });
  held(inFlight.acquire('a'));
  held(inFlight.acquire('a'));
  const third = inFlight.acquire('a');
  assert.equal(third, { ok: false, code: 'too-many-concurrent', limit: 2 });
});

test('releasing a slot lets the client in again', () => {
  const inFlight = new InFlight({ perClient: 1, global: 10 });
  const release = held(inFlight.acquire('a'));
  assert.not.ok(inFlight.acquire('a').ok);
  release();
  assert.ok(inFlight.acquire('a').ok);
});

test('one client at its cap does not hold back another', () => {
  const inFlight = new InFlight({ perClient: 1, global: 10 });
  held(inFlight.acquire('a'));
  assert.ok(inFlight.acquire('b').ok);
});

test('the server-wide cap answers overloaded with a Retry-After', () => {
  const inFlight = new InFlight({ perClient: 5, global: 2, overloadedRetryAfterSeconds: 3 });
  held(inFlight.acquire('a'));
  held(inFlight.acquire('b'));
  assert.equal(inFlight.acquire('c'), { ok: false, code: 'overloaded', limit: 2, retryAfterSeconds: 3 });
});

test('overloaded defaults to a Retry-After of one second', () => {
  const inFlight = new InFlight({ perClient: 1, global: 0 });
  const refused = inFlight.acquire('a');
  assert.ok(!refused.ok && refused.code === 'overloaded' && refused.retryAfterSeconds === 1);
});

test('release is idempotent: a second call frees nothing more', () => {
  const inFlight = new InFlight({ perClient: 2, global: 10 });
  const first = held(inFlight.acquire('a'));
  held(inFlight.acquire('a'));
  first();
  first();
  assert.is(inFlight.count('a'), 1);
  assert.is(inFlight.total, 1);
});

test('a client with nothing in flight leaves no entry behind', () => {
  const inFlight = new InFlight({ perClient: 2, global: 10 });
  const releases = [held(inFlight.acquire('a')), held(inFlight.acquire('b'))];
  for (const release of releases) release();
  assert.is(inFlight.clients, 0);
  assert.is(inFlight.total, 0);
});

test('a refusal holds no slot', () => {
  const inFlight = new InFlight({ perClient: 1, global: 1 });
  held(inFlight.acquire('a'));
  inFlight.acquire('a');
  inFlight.acquire('b');
  assert.is(inFlight.total, 1);
  assert.is(inFlight.count('b'), 0);
});

test.run();
