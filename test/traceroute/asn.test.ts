// asn on traceroute: each hop's first answering address is asked for its origin AS, a TXT question under
// the ASN zone (a made-up zone in Team Cymru's layout, served by a loopback Knot), through the server's
// DNS engine and its budgets. The traces go to loopback only (one hop: the target).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TracerouteResult } from '../../src/tools/traceroute/types';
import { startSilentResolver, type Silent } from '../clients/silent-resolver';
import { assertMatchesSchema } from '../support/contract';
import { postJson, request } from '../support/http';
import type { KnotServer } from '../support/knot';
import { startAsnKnot, startAsnServer, ZONE_ASN } from '../support/loopback-asn';
import { sentTo } from '../support/loopback-reverse-names';
import type { RunningServer } from '../support/server';

const PATH = '/api/tools/traceroute';

async function trace(server: RunningServer, body: Record<string, unknown>): Promise<TracerouteResult> {
  const reply = await postJson(server.base, PATH, body);
  assert.is(reply.status, 200, reply.text);
  return reply.json<TracerouteResult>();
}

const zone = suite<{ knot: KnotServer; server: RunningServer }>('POST /api/tools/traceroute, asn from the ASN zone');

zone.before(async (ctx) => {
  ctx.knot = await startAsnKnot('127.0.0.96');
  ctx.server = await startAsnServer(ctx.knot, true);
});

zone.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.knot?.stop();
});

zone("the hop carries its address's origin AS number and prefix", async ({ server }) => {
  const r = await trace(server, { host: '127.0.0.2', asn: true });
  assertMatchesSchema('TracerouteResult', r);
  assert.equal(r.hops[0]!.asn, ZONE_ASN['127.0.0.2']);
});

zone('an IPv6 hop is asked by its nibbles under the v6 zone', async ({ server }) => {
  const r = await trace(server, { host: '::1', asn: true });
  assert.equal(r.hops[0]!.asn, ZONE_ASN['::1']);
});

zone('a hop the zone does not hold (NXDOMAIN) has no asn, and the trace is answered all the same', async ({ server }) => {
  const r = await trace(server, { host: '127.0.0.3', asn: true });
  assert.is(r.destinationReached, true);
  assert.not.ok('asn' in r.hops[0]!);
});

zone('a malformed answer is ignored: no asn', async ({ server }) => {
  const r = await trace(server, { host: '127.0.0.4', asn: true });
  assert.not.ok('asn' in r.hops[0]!);
});

zone('a streamed hop comes with its asn', async ({ server }) => {
  const reply = await request(server.base, PATH, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' }, body: JSON.stringify({ host: '127.0.0.5', asn: true }) });
  const events = reply.text.trim().split('\n').map((l) => JSON.parse(l) as { event: string; data: { asn?: unknown } });
  assert.equal(events.find((e) => e.event === 'hop')!.data.asn, ZONE_ASN['127.0.0.5']);
});

zone('an answer is kept for its TTL: a second trace asks the resolver nothing more', async ({ server }) => {
  const before = await sentTo(server, 'a');
  await trace(server, { host: '127.0.0.7', asn: true });
  const again = await trace(server, { host: '127.0.0.7', asn: true });
  assert.equal(again.hops[0]!.asn, ZONE_ASN['127.0.0.7']);
  assert.is(await sentTo(server, 'a'), before + 1);
});

zone.run();

const skipped = suite<{ knot: KnotServer; server: RunningServer }>('POST /api/tools/traceroute, asn for a special-range address');

skipped.before(async (ctx) => {
  ctx.knot = await startAsnKnot('127.0.0.97');
  ctx.server = await startAsnServer(ctx.knot, false);
});

skipped.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.knot?.stop();
});

skipped('a loopback hop is not asked about without NETTOOLS_ASN_PRIVATE_HOPS: no query, no asn', async ({ server }) => {
  const before = await sentTo(server, 'a');
  const r = await trace(server, { host: '127.0.0.2', asn: true });
  assert.not.ok('asn' in r.hops[0]!);
  assert.is(await sentTo(server, 'a'), before);
});

skipped.run();

const silent = suite<{ mute: Silent; server: RunningServer }>('POST /api/tools/traceroute, asn of a resolver that never answers');

silent.before(async (ctx) => {
  ctx.mute = await startSilentResolver('127.0.0.98');
  ctx.server = await startAsnServer(ctx.mute, true);
});

silent.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.mute?.close();
});

silent('the trace completes, its hop without asn', async ({ server }) => {
  const r = await trace(server, { host: '127.0.0.2', timeoutMs: 300, asn: true });
  assert.is(r.destinationReached, true);
  assert.not.ok('asn' in r.hops[0]!);
  assert.ok((await sentTo(server, 'a')) >= 1);
});

silent.run();
