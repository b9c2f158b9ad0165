import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { postJson } from '../support/http';
import { sentTo, startReverseNamesServer, stopReverseNamesServer, type ReverseNamesSetup } from '../support/loopback-reverse-names';
import { parseNdjson, postStream } from './stream-reader';

// resolveNames (CONTRACT "Traceroute"): each hop's name asked of the configured resolvers (PTR), through
// the server's own DNS engine and its resolver budgets. Two loopback Knot servers hold the reverse zones
// of 127.0.0.0/24 and ::1; the traces go to loopback only (one hop: the target).
const test = suite<ReverseNamesSetup>('POST /api/tools/traceroute, resolveNames');
const PATH = '/api/tools/traceroute';

test.before(async (ctx) => {
  Object.assign(ctx, await startReverseNamesServer(['127.0.0.81', '127.0.0.82']));
});

test.after((ctx) => stopReverseNamesServer(ctx));

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
