// DNSSEC through the API: Knot signs signed.test and bogus.test itself; a second Knot serves bogus.test
// transferred from the first with one A record changed under its signature; a private unbound on loopback
// validates both with the first Knot's keys as trust anchors. Knot asked directly validates nothing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { postJson } from '../support/http';
import { dnskeyAnchors, startKnot, transferZone, type KnotServer } from '../support/knot';
import { startServer, type RunningServer } from '../support/server';
import { startUnbound, type UnboundServer } from '../support/unbound';
import { parseNdjson, postStream } from './stream-reader';

const test = suite<{ signer: KnotServer; forger: KnotServer; unbound: UnboundServer; server: RunningServer; keys: string[] }>('POST /api/tools/dns, dnssec');

const zone = (domain: string) => ({ domain, signed: true, records: ['www A 192.0.2.80', 'www AAAA 2001:db8::80'] });

test.before(async (ctx) => {
  ctx.signer = await startKnot([zone('signed.test'), zone('bogus.test')], '127.0.0.111');
  const forged = (await transferZone(ctx.signer, 'bogus.test')).replace(/(www\.bogus\.test\.\s+\d+\s+IN\s+A\s+)192\.0\.2\.80/, '$1192.0.2.81');
  ctx.forger = await startKnot([{ domain: 'bogus.test', text: forged }], '127.0.0.112');
  ctx.keys = await dnskeyAnchors(ctx.signer, 'signed.test');
  const anchors = [...ctx.keys, ...(await dnskeyAnchors(ctx.signer, 'bogus.test'))];
  const stubs = [
    { zone: 'signed.test', address: ctx.signer.address, port: ctx.signer.port },
    { zone: 'bogus.test', address: ctx.forger.address, port: ctx.forger.port },
  ];
  ctx.unbound = await startUnbound('127.0.0.113', stubs, anchors);
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: `unbound=127.0.0.113:${ctx.unbound.port},knot=127.0.0.111:${ctx.signer.port}` });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.unbound?.stop();
  await ctx.forger?.stop();
  await ctx.signer?.stop();
});

const dns = (server: RunningServer, body: Record<string, unknown>) => postJson(server.base, '/api/tools/dns', body);
// unbound answers from its cache with the TTL counted down: compare records without it.
const untimed = (records: Array<Record<string, unknown>>) => records.map(({ ttl: _ttl, ...rest }) => rest);

test('a validated answer has ad, its RRSIG, and records marked validated', async ({ server, keys }) => {
  const reply = await dns(server, { domain: 'www.signed.test', types: ['A'], resolvers: ['unbound'], dnssec: true });
  assert.is(reply.status, 200);
  const body = reply.json();
  assertMatchesSchema('DnsResult', body);
  const a = body.resolvers[0].queries.A;
  assert.ok(a.flags.includes('ad'), `flags ${a.flags}`);
  assert.is(a.rrsigs.length, 1);
  const sig = a.rrsigs[0];
  assert.equal([sig.typeCovered, sig.algorithm, sig.labels, sig.originalTtl, sig.signerName], ['A', 13, 3, 300, 'signed.test']);
  assert.ok(Date.parse(sig.inception) < Date.now() && Date.now() < Date.parse(sig.expiration), `${sig.inception} .. ${sig.expiration}`);
  assert.ok(Buffer.from(sig.signature, 'base64').length === 64, 'an ECDSA P-256 signature is 64 bytes');
  assert.is(keys.length, 1);
  assert.equal(untimed(body.records.A), [{ address: '192.0.2.80', validated: true }]);
});

test('a forged record behind a validating resolver: SERVFAIL with EDE 6, and nothing marked validated', async ({ server }) => {
  const reply = await dns(server, { domain: 'www.bogus.test', types: ['A'], dnssec: true });
  assert.is(reply.status, 200);
  const body = reply.json();
  assertMatchesSchema('DnsResult', body);
  const [viaUnbound, viaKnot] = body.resolvers;
  assert.is(viaUnbound.queries.A.rcode, 'SERVFAIL');
  assert.is(viaUnbound.queries.A.ede[0].code, 6);
  assert.is(viaUnbound.queries.A.ede[0].name, 'DNSSEC Bogus');
  assert.match(viaUnbound.queries.A.ede[0].text, /validation failure/, JSON.stringify(viaUnbound.queries.A.ede));
  assert.is(viaKnot.queries.A.rcode, 'NOERROR');
  assert.equal(untimed(body.records.A), [{ address: '192.0.2.80' }]);
});

test('Knot asked directly: RRSIGs but no ad, so no record is validated', async ({ server }) => {
  const body = (await dns(server, { domain: 'www.signed.test', types: ['AAAA'], resolvers: ['knot'], dnssec: true })).json();
  const aaaa = body.resolvers[0].queries.AAAA;
  assert.not.ok(aaaa.flags.includes('ad'));
  assert.equal(aaaa.rrsigs.map((s: { typeCovered: string }) => s.typeCovered), ['AAAA']);
  assert.equal(untimed(body.records.AAAA), [{ address: '2001:db8::80' }]);
});

test('the validating resolver marks its answer validated even beside Knot, which never sets ad', async ({ server }) => {
  const body = (await dns(server, { domain: 'www.signed.test', types: ['AAAA'], dnssec: true })).json();
  assert.equal(untimed(body.records.AAAA), [{ address: '2001:db8::80', validated: true }]);
});

test('without dnssec the body has no rrsigs, no ad and no validated mark, as before', async ({ server }) => {
  const body = (await dns(server, { domain: 'www.signed.test', types: ['A'] })).json();
  for (const r of body.resolvers) {
    assert.equal(Object.keys(r.queries.A), ['rcode', 'flags', 'rttMs', 'transport', 'answers']);
    assert.not.ok(r.queries.A.flags.includes('ad'));
  }
  assert.equal(untimed(body.records.A), [{ address: '192.0.2.80' }]);
});

test('streamed: each answer event carries its RRSIGs and EDE as the summary holds them', async ({ server }) => {
  const s = await postStream(server.base, '/api/tools/dns', { domain: 'www.bogus.test', types: ['A'], dnssec: true }, 'application/x-ndjson');
  await s.ended;
  const events = parseNdjson(s);
  assert.equal(events.map((e) => e.event), ['start', 'answer', 'answer', 'summary']);
  const summary = events[3]?.data;
  for (const answer of events.slice(1, 3)) {
    const report = summary.resolvers.find((r: { id: string }) => r.id === answer.data.resolver);
    assert.equal(answer.data.query, report.queries.A);
  }
  const byId = Object.fromEntries(events.slice(1, 3).map((e) => [e.data.resolver, e.data.query]));
  assert.is(byId.unbound.ede[0].code, 6);
  assert.is(byId.knot.rrsigs[0].typeCovered, 'A');
});

test.run();
