// resolveNames on mtr: each address that answers at a hop is asked for its PTR name once, of the
// configured resolvers, through the server's DNS engine and its budgets. Two loopback Knot servers hold
// the reverse zones of 127.0.0.0/24 and ::1; the mtr goes to loopback only (one hop: the target).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { MtrResult } from '../../src/tools/mtr/types';
import { postJson } from '../support/http';
import { sentTo, startReverseNamesServer, stopReverseNamesServer, type ReverseNamesSetup } from '../support/loopback-reverse-names';
import type { RunningServer } from '../support/server';

const test = suite<ReverseNamesSetup>('POST /api/tools/mtr, resolveNames');
const PATH = '/api/tools/mtr';

test.before(async (ctx) => {
  Object.assign(ctx, await startReverseNamesServer(['127.0.0.91', '127.0.0.92']));
});

test.after((ctx) => stopReverseNamesServer(ctx));

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
