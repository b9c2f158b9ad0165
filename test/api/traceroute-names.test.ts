import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { postJson, request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { parsePromText, sampleValue } from '../support/prom-text';
import { startServer, type RunningServer } from '../support/server';
import { parseNdjson, postStream } from './stream-reader';

// resolveNames (CONTRACT "Traceroute"): each hop's name asked of the configured resolvers (PTR), through
// the server's own DNS engine and its resolver budgets. Two loopback Knot servers hold the reverse zones
// of 127.0.0.0/24 and ::1; the traces go to loopback only (one hop: the target).
const test = suite<{ a: KnotServer; b: KnotServer; server: RunningServer }>('POST /api/tools/traceroute, resolveNames');
const PATH = '/api/tools/traceroute';
const V6_LOOPBACK_ZONE = `${'0.'.repeat(31)}ip6.arpa`;

test.before(async (ctx) => {
  const zones = [
    { domain: '0.0.127.in-addr.arpa', records: ['2 PTR target.loop.test.'] },
    { domain: V6_LOOPBACK_ZONE, records: ['1 PTR six.loop.test.'] },
  ];
  ctx.a = await startKnot(zones, '127.0.0.81');
  ctx.b = await startKnot(zones, '127.0.0.82');
  ctx.server = await startServer({
    NETTOOLS_RESOLVERS: `a=127.0.0.81:${ctx.a.port},b=127.0.0.82:${ctx.b.port}`,
    NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true',
    NETTOOLS_RATE_LIMIT: '1000/1s',
    NETTOOLS_TARGET_TRACES_PER_MINUTE: '1000',
  });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.a?.stop();
  await ctx.b?.stop();
});

const sentTo = async (server: RunningServer, resolver: string) => sampleValue(parsePromText((await request(server.base, '/metrics')).text), 'nettools_resolver_queries_sent_total', { resolver });

test("each hop carries the PTR name the resolvers hold for its address, without the final dot", async ({ server }) => {
  const body = (await postJson(server.base, PATH, { host: '127.0.0.2', probesPerHop: 1, resolveNames: true })).json();
  assert.equal(body.hops.map((h: { ttl: number; name?: string }) => [h.ttl, h.name]), [[1, 'target.loop.test']]);
  assert.equal(Object.keys(body.hops[0]), ['ttl', 'probes', 'name']);
});

test('an IPv6 hop is asked under ip6.arpa', async ({ server }) => {
  const body = (await postJson(server.base, PATH, { host: '::1', probesPerHop: 1, resolveNames: true })).json();
  assert.is(body.hops[0].name, 'six.loop.test');
});

test('a hop whose address has no PTR record has no name, and the trace is answered all the same', async ({ server }) => {
  const reply = await postJson(server.base, PATH, { host: '127.0.0.3', probesPerHop: 1, resolveNames: true });
  assert.is(reply.status, 200, reply.text);
  assert.equal(Object.keys(reply.json().hops[0]), ['ttl', 'probes']);
});

test('without resolveNames no resolver is asked', async ({ server }) => {
  const before = await sentTo(server, 'a');
  const body = (await postJson(server.base, PATH, { host: '127.0.0.2', probesPerHop: 1 })).json();
  assert.is(body.hops[0].name, undefined);
  assert.is(await sentTo(server, 'a'), before);
});

test("the names are asked of every configured resolver and counted against their budgets", async ({ server }) => {
  const [a, b] = [await sentTo(server, 'a'), await sentTo(server, 'b')];
  await postJson(server.base, PATH, { host: '127.0.0.2', probesPerHop: 1, resolveNames: true });
  assert.is(await sentTo(server, 'a'), a + 1);
  assert.is(await sentTo(server, 'b'), b + 1);
});

test('streamed: the hop event carries its name, then the summary the same', async ({ server }) => {
  const s = await postStream(server.base, PATH, { host: '127.0.0.2', probesPerHop: 1, resolveNames: true }, 'application/x-ndjson');
  await s.ended;
  const events = parseNdjson(s);
  assert.equal(events.map((e) => e.event), ['start', 'hop', 'summary']);
  assert.is(events[1]!.data.name, 'target.loop.test');
  assert.equal(events[2]!.data.hops, [events[1]!.data]);
});

test.run();
