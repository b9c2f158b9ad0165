// Each (resolver, type) entry told as it settles (ResolverClient's onEntry), before the whole result.
// Real Knot servers on loopback; one of them paused (SIGSTOP) to be the slow resolver.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient, type ResolverClient, type ResolverQueries, type ResolverQuery, type SettledEntry } from '../../src/engines/dns';
import { startKnot, stopAllKnot, type KnotServer } from '../support/knot';
import { startSilentDns } from '../support/fault-dns';
import { waitFor } from '../support/wait';
import { EXAMPLE_ZONE } from './zones';

let fast: KnotServer;
let slow: KnotServer;
let client: ResolverClient;

test.before(async () => {
  [fast, slow] = await Promise.all([startKnot([EXAMPLE_ZONE], '127.0.0.3'), startKnot([EXAMPLE_ZONE], '127.0.0.4')]);
  client = openResolverClient();
});

test.after(async () => {
  client?.close();
  slow?.resume();
  await stopAllKnot();
});

function request(extra: Partial<ResolverQuery> = {}): ResolverQuery {
  return { domain: 'example.test', types: ['A', 'AAAA'], resolvers: [fast.resolver('fast'), slow.resolver('slow')], timeoutMs: 3000, ...extra };
}

// Every told entry is the one the results hold for its pair.
function assertSameAsResults(told: readonly SettledEntry[], results: readonly ResolverQueries[]): void {
  for (const t of told) {
    assert.is(results[t.resolverIndex]?.resolver, t.resolver);
    assert.equal(t.entry, results[t.resolverIndex]?.queries[t.type]);
  }
}

test('a fast resolver\'s entries are told while the slow one is still paused, each before the result', async () => {
  slow.pause();
  let paused = true;
  const told: Array<SettledEntry & { whilePaused: boolean }> = [];
  let done = false;
  const pending = client.query(request(), undefined, (s) => {
    assert.is(done, false);
    told.push({ ...s, whilePaused: paused });
  });
  void pending.then(() => (done = true));
  try {
    await waitFor('both fast entries', () => told.length === 2);
  } finally {
    paused = false;
    slow.resume();
  }
  const results = await pending;
  assert.equal(told.map((t) => [t.resolverIndex, t.whilePaused]), [[0, true], [0, true], [1, false], [1, false]]);
  assert.equal(told.map((t) => `${t.resolverIndex}:${t.type}:${t.typeIndex}`).sort(), ['0:A:0', '0:AAAA:1', '1:A:0', '1:AAAA:1']);
  assertSameAsResults(told, results);
  assert.is(results[1]?.queries.A && 'rcode' in results[1].queries.A ? results[1].queries.A.rcode : undefined, 'NOERROR');
});

test('a resolver that never answers is told as a timeout once its budget is spent, after the answers', async () => {
  const silent = await startSilentDns('127.0.0.3');
  try {
    const told: SettledEntry[] = [];
    const results = await client.query(
      request({ types: ['A'], resolvers: [{ id: 'silent', address: silent.address, port: silent.port, family: 4 }, fast.resolver('fast')], timeoutMs: 400 }),
      undefined,
      (s) => told.push(s),
    );
    assert.equal(told.map((t) => t.resolverIndex), [1, 0]);
    assert.equal(told[1]?.entry, { error: 'timeout' });
    assertSameAsResults(told, results);
  } finally {
    await silent.stop();
  }
});

test('pairs that cannot start are told too, just before the result', async () => {
  const told: SettledEntry[] = [];
  const results = await client.query(
    request({ resolvers: [{ id: 'bad', address: 'resolver.invalid', port: 53, family: 4 }, fast.resolver('fast')] }),
    undefined,
    (s) => told.push(s),
  );
  assert.equal(told.map((t) => t.resolverIndex), [1, 1, 0, 0]);
  assert.equal(told[2]?.entry, { error: 'invalid-address' });
  assertSameAsResults(told, results);
});

test('without onEntry the results are the same entries', async () => {
  const told: SettledEntry[] = [];
  const withEntries = await client.query(request(), undefined, (s) => told.push(s));
  const plain = await client.query(request());
  assert.is(told.length, 4);
  const strip = (rs: ResolverQueries[]) => rs.map((r) => Object.fromEntries(Object.entries(r.queries).map(([t, e]) => [t, e && 'rcode' in e ? [e.rcode, e.answers] : e])));
  assert.equal(strip(plain), strip(withEntries));
});

test('cancelling from onEntry tells nothing more, and the unsettled pairs come back cancelled', async () => {
  slow.pause();
  try {
    const told: SettledEntry[] = [];
    const results = await new Promise<ResolverQueries[]>((resolve) => {
      const cancel = client.start(request(), resolve, (s) => {
        told.push(s);
        cancel();
      });
    });
    assert.is(told.length, 1);
    assert.is(told[0]?.resolverIndex, 0);
    assert.equal(results[1]?.queries, { A: { error: 'cancelled' }, AAAA: { error: 'cancelled' } });
    assert.is(client.counters().inFlight, 0);
  } finally {
    slow.resume();
  }
});

test('closing the client from onEntry settles the request with the rest cancelled', async () => {
  slow.pause();
  const own = openResolverClient();
  try {
    const told: SettledEntry[] = [];
    const results = await new Promise<ResolverQueries[]>((resolve) => {
      own.start(request(), resolve, (s) => {
        told.push(s);
        own.close();
      });
    });
    assert.is(told.length, 1);
    assert.equal(results[1]?.queries, { A: { error: 'cancelled' }, AAAA: { error: 'cancelled' } });
  } finally {
    slow.resume();
  }
});

test.run();
