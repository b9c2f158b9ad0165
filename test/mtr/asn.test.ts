// asn on mtr: each address that answers at a hop is asked for its origin AS, a TXT question under the
// ASN zone (a made-up zone in Team Cymru's layout, served by a loopback Knot), through the server's DNS
// engine and its budgets. The mtr goes to loopback only (one hop: the target).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { MtrResult } from '../../src/tools/mtr/types';
import { startSilentResolver, type Silent } from '../clients/silent-resolver';
import { assertMatchesSchema } from '../support/contract';
import { postJson, request } from '../support/http';
import type { KnotServer } from '../support/knot';
import { startAsnKnot, startAsnServer, ZONE_ASN } from '../support/loopback-asn';
import { sentTo } from '../support/loopback-reverse-names';
import type { RunningServer } from '../support/server';

const PATH = '/api/tools/mtr';

async function mtr(server: RunningServer, body: Record<string, unknown>): Promise<MtrResult> {
  const reply = await postJson(server.base, PATH, body);
  assert.is(reply.status, 200, reply.text);
  return reply.json<MtrResult>();
}

const zone = suite<{ knot: KnotServer; server: RunningServer }>('POST /api/tools/mtr, asn from the ASN zone');

zone.before(async (ctx) => {
  ctx.knot = await startAsnKnot('127.0.0.93');
  ctx.server = await startAsnServer(ctx.knot, true);
});

zone.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.knot?.stop();
});

zone('each answering address carries the origin AS number and prefix the zone holds for it', async ({ server }) => {
  const r = await mtr(server, { host: '127.0.0.2', cycles: 2, intervalMs: 200, asn: true });
  assertMatchesSchema('MtrResult', r);
  assert.equal(r.hops[0]!.addresses, [{ address: '127.0.0.2', asn: ZONE_ASN['127.0.0.2'], count: 2 }]);
});

zone('an IPv6 address is asked by its nibbles under the v6 zone', async ({ server }) => {
  const r = await mtr(server, { host: '::1', cycles: 1, asn: true });
  assert.equal(r.hops[0]!.addresses[0]!.asn, ZONE_ASN['::1']);
});

zone('of several origin AS numbers the first is shown, with a 32-bit AS number whole', async ({ server }) => {
  const r = await mtr(server, { host: '127.0.0.5', cycles: 1, asn: true });
  assert.equal(r.hops[0]!.addresses[0]!.asn, ZONE_ASN['127.0.0.5']);
});

zone('an address the zone does not hold (NXDOMAIN) has no asn, and the mtr is answered all the same', async ({ server }) => {
  const r = await mtr(server, { host: '127.0.0.3', cycles: 1, asn: true });
  assert.equal(r.hops[0]!.addresses, [{ address: '127.0.0.3', count: 1 }]);
});

zone('a malformed answer is ignored: no asn', async ({ server }) => {
  const r = await mtr(server, { host: '127.0.0.4', cycles: 1, asn: true });
  assert.equal(r.hops[0]!.addresses, [{ address: '127.0.0.4', count: 1 }]);
});

zone('an answer whose prefix does not hold the address is ignored: no asn', async ({ server }) => {
  const r = await mtr(server, { host: '127.0.0.8', cycles: 1, asn: true });
  assert.equal(r.hops[0]!.addresses, [{ address: '127.0.0.8', count: 1 }]);
});

zone('names and AS numbers together, each from its own zone', async ({ server }) => {
  // The resolver holds no reverse zone: the name is missing, the AS is there.
  const r = await mtr(server, { host: '127.0.0.2', cycles: 1, asn: true, resolveNames: true });
  assert.equal(r.hops[0]!.addresses, [{ address: '127.0.0.2', asn: ZONE_ASN['127.0.0.2'], count: 1 }]);
});

zone('an answer is kept for its TTL: a second mtr asks the resolver nothing more', async ({ server }) => {
  const before = await sentTo(server, 'a');
  const first = await mtr(server, { host: '127.0.0.7', cycles: 1, asn: true });
  const again = await mtr(server, { host: '127.0.0.7', cycles: 1, asn: true });
  assert.equal([first.hops[0]!.addresses[0]!.asn, again.hops[0]!.addresses[0]!.asn], [ZONE_ASN['127.0.0.7'], ZONE_ASN['127.0.0.7']]);
  assert.is(await sentTo(server, 'a'), before + 1);
});

zone('the cache serves the same worker traceroute too', async ({ server }) => {
  await mtr(server, { host: '127.0.0.2', cycles: 1, asn: true });
  const before = await sentTo(server, 'a');
  const reply = await postJson(server.base, '/api/tools/traceroute', { host: '127.0.0.2', asn: true });
  assert.equal(reply.json<{ hops: Array<{ asn?: unknown }> }>().hops[0]!.asn, ZONE_ASN['127.0.0.2']);
  assert.is(await sentTo(server, 'a'), before);
});

zone('without asn no resolver is asked', async ({ server }) => {
  const before = await sentTo(server, 'a');
  const r = await mtr(server, { host: '127.0.0.6', cycles: 1 });
  assert.is(r.hops[0]!.addresses[0]!.asn, undefined);
  assert.is(await sentTo(server, 'a'), before);
});

zone('a streamed mtr carries the AS in its cycle events and summary', async ({ server }) => {
  const reply = await request(server.base, PATH, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' }, body: JSON.stringify({ host: '127.0.0.2', cycles: 2, intervalMs: 200, asn: true }) });
  const events = reply.text.trim().split('\n').map((l) => JSON.parse(l) as { event: string; data: MtrResult });
  const summary = events.find((e) => e.event === 'summary')!.data;
  assert.equal(summary.hops[0]!.addresses[0]!.asn, ZONE_ASN['127.0.0.2']);
  const last = events.filter((e) => e.event === 'cycle').pop()!.data;
  assert.equal(last.hops[0]!.addresses[0]!.asn, ZONE_ASN['127.0.0.2']);
});

zone.run();

const skipped = suite<{ knot: KnotServer; server: RunningServer }>('POST /api/tools/mtr, asn for a special-range address');

skipped.before(async (ctx) => {
  ctx.knot = await startAsnKnot('127.0.0.94');
  ctx.server = await startAsnServer(ctx.knot, false);
});

skipped.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.knot?.stop();
});

skipped('a loopback hop is not asked about without NETTOOLS_ASN_PRIVATE_HOPS: no query, no asn', async ({ server }) => {
  const before = await sentTo(server, 'a');
  const r = await mtr(server, { host: '127.0.0.2', cycles: 1, asn: true });
  assert.equal(r.hops[0]!.addresses, [{ address: '127.0.0.2', count: 1 }]);
  assert.is(await sentTo(server, 'a'), before);
});

skipped.run();

const silent = suite<{ mute: Silent; server: RunningServer }>('POST /api/tools/mtr, asn of a resolver that never answers');

silent.before(async (ctx) => {
  ctx.mute = await startSilentResolver('127.0.0.95');
  ctx.server = await startAsnServer(ctx.mute, true);
});

silent.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.mute?.close();
});

silent('the mtr completes, its address without asn', async ({ server }) => {
  const r = await mtr(server, { host: '127.0.0.2', cycles: 2, intervalMs: 200, timeoutMs: 300, asn: true });
  assert.equal([r.cycles, r.destinationReached], [2, true]);
  assert.equal(r.hops[0]!.addresses, [{ address: '127.0.0.2', count: 2 }]);
  assert.ok((await sentTo(server, 'a')) >= 1);
});

silent.run();
