import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { kdigAnswer } from '../support/kdig';
import { postJson } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { startServer, type RunningServer } from '../support/server';
import { parseNdjson, postStream } from './stream-reader';

// An IP literal in `domain`: PTR of its reverse name, from a Knot holding the reverse zones of
// 127.0.0.0/24 and fd00::/16.
const test = suite<{ knot: KnotServer; server: RunningServer }>('POST /api/tools/dns, reverse lookups');

const V6_ZONE = '0.0.d.f.ip6.arpa';
// fd00::5 within fd00::/16: 28 nibbles, the last first.
const FD00_5 = `5.${'0.'.repeat(27)}`.slice(0, -1);

test.before(async (ctx) => {
  ctx.knot = await startKnot(
    [
      { domain: '0.0.127.in-addr.arpa', records: ['2 PTR target.loop.test.', '5 PTR One.loop.test.', '5 PTR two.loop.test.', '5 TXT "reverse text"'] },
      { domain: V6_ZONE, records: [`${FD00_5} PTR six.loop.test.`] },
    ],
    '127.0.0.15',
  );
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: `k=127.0.0.15:${ctx.knot.port}` });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.knot?.stop();
});

const dns = (server: RunningServer, body: Record<string, unknown>) => postJson(server.base, '/api/tools/dns', body);

test('an IPv4 literal asks PTR of its in-addr.arpa name alone; the body shows both names', async ({ knot, server }) => {
  const reply = await dns(server, { domain: '127.0.0.5' });
  assert.is(reply.status, 200);
  const body = reply.json();
  assertMatchesSchema('DnsResult', body);
  assert.is(body.domain, '127.0.0.5');
  assert.is(body.reverseName, '5.0.0.127.in-addr.arpa');
  assert.equal(Object.keys(body.records), ['PTR']);
  assert.equal(Object.keys(body.resolvers[0].queries), ['PTR']);
  const kdig = await kdigAnswer(knot.address, knot.port, '5.0.0.127.in-addr.arpa', 'PTR');
  const ours = body.records.PTR.map((r: { name: string; ttl: number }) => `${r.name}. ${r.ttl}`).sort();
  assert.is(ours.length, 2);
  assert.equal(ours, kdig.map((r) => `${r.rdata} ${r.ttl}`).sort());
});

test('an IPv6 literal asks PTR of its ip6.arpa name', async ({ server }) => {
  const body = (await dns(server, { domain: '[FD00::5]' })).json();
  assert.is(body.domain, 'fd00::5');
  assert.is(body.reverseName, `${FD00_5}.${V6_ZONE}`);
  assert.equal(body.records.PTR, [{ name: 'six.loop.test', ttl: 300 }]);
});

test('an IP literal with types asks exactly those types of the reverse name', async ({ server }) => {
  const body = (await dns(server, { domain: '127.0.0.5', types: ['TXT'] })).json();
  assert.equal(Object.keys(body.records), ['TXT']);
  assert.equal(body.records.TXT, [{ value: 'reverse text', parts: ['reverse text'], ttl: 300 }]);
});

test('an address without a PTR record is NXDOMAIN, an answer like any other', async ({ server }) => {
  const body = (await dns(server, { domain: '127.0.0.9' })).json();
  assert.is(body.resolvers[0].queries.PTR.rcode, 'NXDOMAIN');
  assert.is(body.outcomes.PTR, 'nxdomain');
});

test('a streamed reverse lookup names the reverse name in its start event', async ({ server }) => {
  const s = await postStream(server.base, '/api/tools/dns', { domain: '127.0.0.2' }, 'application/x-ndjson');
  await s.ended;
  const events = parseNdjson(s);
  assert.equal(events[0]?.data.domain, '127.0.0.2');
  assert.equal(events[0]?.data.reverseName, '2.0.0.127.in-addr.arpa');
  assert.equal(events[0]?.data.types, ['PTR']);
  assert.is(events.at(-1)?.data.reverseName, '2.0.0.127.in-addr.arpa');
});

test('a name carries no reverseName', async ({ server }) => {
  const body = (await dns(server, { domain: '2.0.0.127.in-addr.arpa', types: ['PTR'] })).json();
  assert.is('reverseName' in body, false);
  assert.equal(body.records.PTR, [{ name: 'target.loop.test', ttl: 300 }]);
});

test.run();
