// resolveNames on mtr: each address that answers at a hop is asked for its PTR name once, of the
// configured resolvers, through the server's DNS engine and its budgets. Two loopback Knot servers hold
// the reverse zones of 127.0.0.0/24 and ::1; the mtr goes to loopback only (one hop: the target).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { MtrResult } from '../../src/tools/mtr/types';
import { postJson, request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { parsePromText, sampleValue } from '../support/prom-text';
import { startServer, type RunningServer } from '../support/server';

const test = suite<{ a: KnotServer; b: KnotServer; server: RunningServer }>('POST /api/tools/mtr, resolveNames');
const PATH = '/api/tools/mtr';

test.before(async (ctx) => {
  const zones = [
    { domain: '0.0.127.in-addr.arpa', records: ['2 PTR target.loop.test.'] },
    { domain: `${'0.'.repeat(31)}ip6.arpa`, records: ['1 PTR six.loop.test.'] },
  ];
  ctx.a = await startKnot(zones, '127.0.0.91');
  ctx.b = await startKnot(zones, '127.0.0.92');
  ctx.server = await startServer({
    NETTOOLS_RESOLVERS: `a=127.0.0.91:${ctx.a.port},b=127.0.0.92:${ctx.b.port}`,
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

async function mtr(server: RunningServer, body: Record<string, unknown>): Promise<MtrResult> {
  const reply = await postJson(server.base, PATH, body);
  assert.is(reply.status, 200, reply.text);
  return reply.json<MtrResult>();
}

test('each answering address carries the PTR name the resolvers hold for it, without the final dot', async ({ server }) => {
  const r = await mtr(server, { host: '127.0.0.2', cycles: 2, intervalMs: 200, resolveNames: true });
  assert.equal(r.hops[0]!.addresses, [{ address: '127.0.0.2', name: 'target.loop.test', count: 2 }]);
});

test('an IPv6 address is asked under ip6.arpa', async ({ server }) => {
  const r = await mtr(server, { host: '::1', cycles: 1, resolveNames: true });
  assert.is(r.hops[0]!.addresses[0]!.name, 'six.loop.test');
});

test('an address with no PTR record has no name, and the mtr is answered all the same', async ({ server }) => {
  const r = await mtr(server, { host: '127.0.0.3', cycles: 1, resolveNames: true });
  assert.equal(r.hops[0]!.addresses, [{ address: '127.0.0.3', count: 1 }]);
});

test('an address seen every cycle is asked once, of each resolver', async ({ server }) => {
  const [a, b] = [await sentTo(server, 'a'), await sentTo(server, 'b')];
  await mtr(server, { host: '127.0.0.2', cycles: 3, intervalMs: 200, resolveNames: true });
  assert.equal([await sentTo(server, 'a'), await sentTo(server, 'b')], [a + 1, b + 1]);
});

test('without resolveNames no resolver is asked', async ({ server }) => {
  const before = await sentTo(server, 'a');
  const r = await mtr(server, { host: '127.0.0.2', cycles: 1 });
  assert.is(r.hops[0]!.addresses[0]!.name, undefined);
  assert.is(await sentTo(server, 'a'), before);
});

test.run();
