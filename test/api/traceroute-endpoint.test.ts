import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { postJson, request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { assertProblem } from '../support/problem';
import { startServer, type RunningServer } from '../support/server';

// POST /api/tools/traceroute on 127.0.0.1 and ::1 (one hop: the target itself). Paths of several hops
// are in test/traceroute/path.test.ts. The hosts are IPs but where a test says otherwise: then `open` asks
// a loopback Knot serving hosts.test.
const test = suite<{ knot: KnotServer; open: RunningServer; guarded: RunningServer }>('POST /api/tools/traceroute');
const PATH = '/api/tools/traceroute';

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'hosts.test', records: ['loop A 127.0.0.5'] }], '127.0.0.9');
  ctx.open = await startServer({ NETTOOLS_RESOLVERS: `knot=${ctx.knot.address}:${ctx.knot.port}`, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_TARGET_TRACES_PER_MINUTE: '2' });
  ctx.guarded = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_RATE_LIMIT: '1000/1s' });
});

test.after(async (ctx) => {
  await ctx.open?.stop();
  await ctx.guarded?.stop();
  await ctx.knot?.stop();
});

test('a trace to loopback is one hop answered by an echo reply from the target, with the defaults in force', async ({ open }) => {
  const reply = await postJson(open.base, PATH, { host: '127.0.0.2' });
  assert.is(reply.status, 200, reply.text);
  const body = JSON.parse(reply.text);
  assertMatchesSchema('TracerouteResult', body);
  assert.is(body.destinationReached, true);
  assert.equal(Object.keys(body), ['host', 'address', 'ipVersion', 'destinationReached', 'hops', 'durationMs', 'startedAt']);
  assert.is(body.hops.length, 1);
  assert.is(body.hops[0].probes.length, 2);
  for (const probe of body.hops[0].probes) {
    assert.is(probe.address, '127.0.0.2');
    assert.equal(probe.icmp, { type: 0, code: 0, name: 'echo-reply' });
  }
});

test('IPv6 loopback answers with an ICMPv6 echo reply (type 129)', async ({ open }) => {
  const reply = await postJson(open.base, PATH, { host: '[::1]', probesPerHop: 1 });
  assert.is(reply.status, 200, reply.text);
  const body = JSON.parse(reply.text);
  assert.is(body.ipVersion, 6);
  assert.equal(body.hops, [{ ttl: 1, probes: [{ address: '::1', rttMs: body.hops[0].probes[0].rttMs, icmp: { type: 129, code: 0, name: 'echo-reply' } }] }]);
});

test('the per-destination trace budget refuses the next trace with 429 target-rate-limited and Retry-After', async ({ open }) => {
  // The budget of 2 a minute for 127.0.0.3, shared by nobody else in this file.
  for (let i = 0; i < 2; i++) assert.is((await postJson(open.base, PATH, { host: '127.0.0.3', probesPerHop: 1 })).status, 200);
  const refused = await postJson(open.base, PATH, { host: '127.0.0.3', probesPerHop: 1 });
  const problem = assertProblem(refused, 429, 'target-rate-limited');
  assert.match(problem.detail, /127\.0\.0\.3/);
  // The title fits traceroute as well as ping; the detail names the trace budget, not echo requests.
  assert.not.match(problem.title, /echo/);
  assert.match(problem.detail, /per-target trace budget/);
  assert.ok(Number(refused.headers['retry-after']) >= 1);
  // Another destination has its own budget.
  assert.is((await postJson(open.base, PATH, { host: '127.0.0.4', probesPerHop: 1 })).status, 200);
});

test('loopback is refused as a target unless the operator allows private targets', async ({ guarded }) => {
  for (const host of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
    const problem = assertProblem(await postJson(guarded.base, PATH, { host }), 422, 'target-forbidden');
    assert.ok(problem.detail.length > 0);
  }
});

test('out-of-bounds and unknown fields are validation errors naming each field', async ({ open }) => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ host: '127.0.0.1', maxHops: 0 }, '/maxHops'],
    [{ host: '127.0.0.1', maxHops: 33 }, '/maxHops'],
    [{ host: '127.0.0.1', probesPerHop: 4 }, '/probesPerHop'],
    [{ host: '127.0.0.1', timeoutMs: 99 }, '/timeoutMs'],
    [{ host: '127.0.0.1', timeoutMs: 3001 }, '/timeoutMs'],
    [{ host: '127.0.0.1', ipVersion: 5 }, '/ipVersion'],
    [{ host: '127.0.0.1', resolveNames: 'yes' }, '/resolveNames'],
    [{ host: '127.0.0.1', count: 3 }, '/count'],
    [{}, '/host'],
    [{ host: 'http://x' }, '/host'],
  ];
  for (const [body, pointer] of cases) {
    const problem = assertProblem(await postJson(open.base, PATH, body), 400, 'validation-failed');
    assert.ok(problem.errors.some((e: { pointer: string }) => e.pointer === pointer), `${JSON.stringify(body)}: ${JSON.stringify(problem.errors)}`);
  }
});

test('a host name the resolver refuses is 502 upstream-failed, not 422 host-not-found', async ({ open }) => {
  // Knot refuses a name outside its zones: no answer about the name at all.
  const body = assertProblem(await postJson(open.base, PATH, { host: 'far.example.test', probesPerHop: 1 }), 502, 'upstream-failed');
  assertMatchesSchema('Problem', body);
  assert.equal(body.resolvers, [{ id: 'knot', address: '127.0.0.9', rcode: 'REFUSED' }]);
  assert.is(body.detail, 'no resolver answered for far.example.test: knot REFUSED');
});

test('a host name that does not exist is 422 host-not-found, dns nxdomain', async ({ open }) => {
  const body = assertProblem(await postJson(open.base, PATH, { host: 'gone.hosts.test', probesPerHop: 1 }), 422, 'host-not-found');
  assert.equal([body.detail, body.dns], ['gone.hosts.test does not exist (NXDOMAIN)', 'nxdomain']);
});

test('GET /probe has no traceroute module', async ({ open }) => {
  assertProblem(await request(open.base, '/probe?module=traceroute&target=127.0.0.1'), 400, 'validation-failed');
});

test.run();
