import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stopAll } from '../../bench/lib/children';
import { startKnot, type KnotSet } from '../../bench/lib/knot';
import { probe } from '../../bench/lib/probe';
import { startServer, type RunningServer } from '../../bench/lib/servers';

// The comparison is only fair if the peers answer like nettools does. Real processes, real Knot on loopback.
let knot: KnotSet;
const servers: Partial<Record<'nettools' | 'baseline' | 'ceiling', RunningServer>> = {};

test.before(async () => {
  knot = await startKnot(1);
  for (const name of ['nettools', 'baseline', 'ceiling'] as const) servers[name] = await startServer(name, knot.resolversEnv);
});

test.after(async () => {
  await stopAll();
});

const post = (name: keyof typeof servers, path: string, body: unknown) => probe(servers[name]!.url, path, JSON.stringify(body));

test('the validation scenario gets the same 400 problem body from nettools, the baseline and the ceiling', async () => {
  const body = { host: '127.0.0.1', count: 0 };
  const replies = await Promise.all((['nettools', 'baseline', 'ceiling'] as const).map((n) => post(n, '/api/tools/ping', body)));
  for (const r of replies) assert.is(r.status, 400);
  const [ours, ...peers] = replies.map((r) => JSON.parse(r.body));
  for (const p of peers) assert.equal(p, ours);
});

test('the baseline refuses unknown fields with the same problem as nettools', async () => {
  const body = { domain: 'bench.test', bogus: 1 };
  const [ours, base] = await Promise.all([post('nettools', '/api/tools/dns', body), post('baseline', '/api/tools/dns', body)]);
  assert.is(base.status, 400);
  assert.equal(JSON.parse(base.body), JSON.parse(ours.body));
});

test('the baseline dns endpoint answers the contract shape from the loopback resolver', async () => {
  const reply = await post('baseline', '/api/tools/dns', { domain: 'bench.test' });
  assert.is(reply.status, 200);
  const body = JSON.parse(reply.body);
  assert.is(body.domain, 'bench.test');
  assert.equal(body.records.A, [{ address: '127.0.0.10', ttl: 300 }]);
  assert.equal(body.records.AAAA, [{ address: '::1', ttl: 300 }]);
  assert.equal(body.records.MX, [{ priority: 10, exchange: 'mail.bench.test', ttl: 0 }]);
  assert.equal(body.records.TXT, [{ value: 'v=spf1 -all', parts: ['v=spf1 -all'], ttl: 0 }]);
  assert.is(body.consistent, true);
  assert.is(body.resolvers[0].id, 'knot1');
  assert.is(body.resolvers[0].queries.A.rcode, 'NOERROR');
  assert.ok(body.durationMs >= 0);
});

test('the baseline reports a resolver’s refusal as an rcode, not an error', async () => {
  const reply = await post('baseline', '/api/tools/dns', { domain: 'outside.example', types: ['A'] });
  assert.is(reply.status, 200);
  assert.is(JSON.parse(reply.body).resolvers[0].queries.A.rcode, 'REFUSED');
});

test('the baseline ping endpoint runs iputils ping on loopback and answers the contract shape', async () => {
  const reply = await post('baseline', '/api/tools/ping', { host: '127.0.0.1', count: 1 });
  assert.is(reply.status, 200);
  const body = JSON.parse(reply.body);
  assert.equal(body.packets, { sent: 1, received: 1, duplicates: 0, lossPercent: 0 });
  assert.is(body.replies[0].status, 'reply');
  assert.ok(body.rtt.minMs > 0 && body.rtt.minMs === body.rtt.maxMs);
});

test('the baseline resolves a ping host name through the configured resolver, not the system', async () => {
  // bench.test exists only on the loopback Knot; its address 127.0.0.10 is loopback too.
  const reply = await post('baseline', '/api/tools/ping', { host: 'bench.test', count: 1 });
  assert.is(reply.status, 200);
  const body = JSON.parse(reply.body);
  assert.is(body.address, '127.0.0.10');
  assert.is(body.packets.received, 1);
});

test.run();
