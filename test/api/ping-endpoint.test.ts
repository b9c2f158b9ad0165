import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { startSilentDns } from '../support/fault-dns';
import { postJson, request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { assertProblem } from '../support/problem';
import { parsePromText, sampleValue } from '../support/prom-text';
import { startServer, type RunningServer } from '../support/server';

type Silent = Awaited<ReturnType<typeof startSilentDns>>;
const test = suite<{ knot: KnotServer; silent: Silent; open: RunningServer; guarded: RunningServer; mute: RunningServer }>('POST /api/tools/ping');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'hosts.test', records: ['loop A 127.0.0.1', 'loop6 AAAA ::1', 'empty TXT "nothing"'] }], '127.0.0.8');
  const resolvers = `knot=127.0.0.8:${ctx.knot.port}`;
  ctx.open = await startServer({ NETTOOLS_RESOLVERS: resolvers, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
  ctx.guarded = await startServer({ NETTOOLS_RESOLVERS: resolvers });
  ctx.silent = await startSilentDns();
  ctx.mute = await startServer({ NETTOOLS_RESOLVERS: `mute=${ctx.silent.address}:${ctx.silent.port}`, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
});

test.after(async (ctx) => {
  await ctx.open?.stop();
  await ctx.guarded?.stop();
  await ctx.mute?.stop();
  await ctx.silent?.stop();
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

test('a name with no address of the wanted family answers 422 host-not-found, dns no-data', async ({ open }) => {
  const empty = assertProblem(await postJson(open.base, '/api/tools/ping', { host: 'empty.hosts.test' }), 422, 'host-not-found');
  assert.is(empty.detail, 'empty.hosts.test has no A or AAAA record');
  assert.is(empty.dns, 'no-data');
  assertMatchesSchema('Problem', empty);
  const six = assertProblem(await postJson(open.base, '/api/tools/ping', { host: 'loop.hosts.test', ipVersion: 6 }), 422, 'host-not-found');
  assert.equal([six.detail, six.dns], ['loop.hosts.test has no AAAA record', 'no-data']);
});

test('a name the resolvers say does not exist answers 422 host-not-found, dns nxdomain', async ({ open }) => {
  const body = assertProblem(await postJson(open.base, '/api/tools/ping', { host: 'gone.hosts.test' }), 422, 'host-not-found');
  assert.equal([body.detail, body.dns], ['gone.hosts.test does not exist (NXDOMAIN)', 'nxdomain']);
});

test('a name the resolvers refuse answers 502 upstream-failed naming what each said, not 422', async ({ open }) => {
  // Knot refuses a name outside its zones.
  const body = assertProblem(await postJson(open.base, '/api/tools/ping', { host: 'loop.elsewhere.test', count: 1 }), 502, 'upstream-failed');
  assertMatchesSchema('Problem', body);
  assert.is(body.detail, 'no resolver answered for loop.elsewhere.test: knot REFUSED');
  assert.equal(body.resolvers, [{ id: 'knot', address: '127.0.0.8', rcode: 'REFUSED' }]);
  assert.not.ok('dns' in body);
});

test('a name whose only resolver is silent answers 504 upstream-timeout', async ({ mute }) => {
  const body = assertProblem(await postJson(mute.base, '/api/tools/ping', { host: 'loop.hosts.test', count: 1, ipVersion: 4 }), 504, 'upstream-timeout');
  assert.equal(body.resolvers, [{ id: 'mute', address: '127.0.0.1', error: 'timeout' }]);
});

test('streamed, a refused name is the ordinary 502 problem: resolution comes before the start', async ({ open }) => {
  const reply = await postJson(open.base, '/api/tools/ping', { host: 'loop.elsewhere.test', count: 1 }, { accept: 'application/x-ndjson' });
  assertProblem(reply, 502, 'upstream-failed');
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
