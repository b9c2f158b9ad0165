import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { postJson, request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { assertProblem } from '../support/problem';
import { parsePromText, sampleValue } from '../support/prom-text';
import { startServer, type RunningServer } from '../support/server';

const test = suite<{ knot: KnotServer; open: RunningServer; guarded: RunningServer }>('POST /api/tools/ping');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'hosts.test', records: ['loop A 127.0.0.1', 'loop6 AAAA ::1', 'empty TXT "nothing"'] }], '127.0.0.8');
  const resolvers = `knot=127.0.0.8:${ctx.knot.port}`;
  ctx.open = await startServer({ NETTOOLS_RESOLVERS: resolvers, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
  ctx.guarded = await startServer({ NETTOOLS_RESOLVERS: resolvers });
});

test.after(async (ctx) => {
  await ctx.open?.stop();
  await ctx.guarded?.stop();
  await ctx.knot?.stop();
});

test('pinging 127.0.0.1 answers the contract shape with every reply', async ({ open }) => {
  const reply = await postJson(open.base, '/api/tools/ping', { host: '127.0.0.1', count: 3, intervalMs: 100 });
  assert.is(reply.status, 200);
  const body = reply.json();
  assertMatchesSchema('PingResult', body);
  assert.is(body.reachable, true);
  assert.equal(body.packets, { sent: 3, received: 3, duplicates: 0, lossPercent: 0 });
  assert.equal(body.replies.map((r: any) => r.seq), [0, 1, 2]);
  assert.ok(body.replies.every((r: any) => r.status === 'reply' && r.rttMs > 0 && r.rttMs < 1000 && r.bytes === 64));
  assert.ok(body.rtt.minMs <= body.rtt.avgMs && body.rtt.avgMs <= body.rtt.maxMs);
  assert.ok(!Number.isNaN(Date.parse(body.startedAt)));
});

test('a host name resolves through the configured resolvers', async ({ open }) => {
  const body = (await postJson(open.base, '/api/tools/ping', { host: 'loop.hosts.test', count: 1 })).json();
  assertMatchesSchema('PingResult', body);
  assert.is(body.host, 'loop.hosts.test');
  assert.is(body.address, '127.0.0.1');
  assert.is(body.ipVersion, 4);
});

test('ipVersion 6 picks the AAAA record', async ({ open }) => {
  const body = (await postJson(open.base, '/api/tools/ping', { host: 'loop6.hosts.test', count: 1, ipVersion: 6 })).json();
  assert.is(body.address, '::1');
  assert.is(body.ipVersion, 6);
});

test('a name with no address of the wanted family answers 422 host-not-found', async ({ open }) => {
  assertProblem(await postJson(open.base, '/api/tools/ping', { host: 'empty.hosts.test' }), 422, 'host-not-found');
  assertProblem(await postJson(open.base, '/api/tools/ping', { host: 'loop.hosts.test', ipVersion: 6 }), 422, 'host-not-found');
});

test('with private targets allowed, multicast, broadcast and unspecified stay refused with nothing sent, while loopback is pinged', async ({ open }) => {
  const scrape = async () => parsePromText((await request(open.base, '/metrics')).text);
  const echoes = async () => (await scrape()).filter((s) => s.name === 'nettools_ping_echoes_total').reduce((sum, s) => sum + s.value, 0);
  const forbidden = async () => sampleValue(await scrape(), 'nettools_ping_requests_total', { outcome: 'target-forbidden' });
  const before = await echoes();
  const forbiddenBefore = await forbidden();
  for (const host of ['224.0.0.1', '239.1.2.3', '255.255.255.255', '0.0.0.0', '::', 'ff02::1']) {
    const body = assertProblem(await postJson(open.base, '/api/tools/ping', { host, count: 1 }), 422, 'target-forbidden');
    assert.match(body.detail, /multicast|broadcast|unspecified/, host);
  }
  assert.is(await forbidden(), forbiddenBefore + 6);
  assert.is(await echoes(), before);
  const reply = await postJson(open.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 });
  assert.is(reply.status, 200, reply.text);
  assert.is(reply.json().packets.received, 1);
  assert.is(await echoes(), before + 1);
});

test('by default a loopback target is refused with 422 target-forbidden', async ({ guarded }) => {
  const body = assertProblem(await postJson(guarded.base, '/api/tools/ping', { host: '127.0.0.1' }), 422, 'target-forbidden');
  assert.match(body.detail, 'loopback');
});

test('a name that resolves into a refused range is refused too', async ({ guarded }) => {
  assertProblem(await postJson(guarded.base, '/api/tools/ping', { host: 'loop.hosts.test' }), 422, 'target-forbidden');
});

test('an IPv4-mapped private literal is refused as the address it carries', async ({ guarded }) => {
  const body = assertProblem(await postJson(guarded.base, '/api/tools/ping', { host: '[::ffff:192.168.1.1]' }), 422, 'target-forbidden');
  assert.match(body.detail, 'private');
});

test.run();
