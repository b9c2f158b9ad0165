import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TYPES_ZONE } from '../dns/type-zones';
import { assertMatchesSchema } from '../support/contract';
import { postJson } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { assertProblem } from '../support/problem';
import { startServer, type RunningServer } from '../support/server';

// The newer types through the API: two Knot servers with the same zone, except one more SRV on b.
const test = suite<{ a: KnotServer; b: KnotServer; server: RunningServer }>('POST /api/tools/dns, the newer types');

test.before(async (ctx) => {
  ctx.a = await startKnot([TYPES_ZONE], '127.0.0.13');
  ctx.b = await startKnot([{ ...TYPES_ZONE, records: [...(TYPES_ZONE.records ?? []), '_sip._tcp SRV 30 0 5062 sip4'] }], '127.0.0.14');
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: `a=127.0.0.13:${ctx.a.port},b=127.0.0.14:${ctx.b.port}` });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.a?.stop();
  await ctx.b?.stop();
});

const dns = (server: RunningServer, body: Record<string, unknown>) => postJson(server.base, '/api/tools/dns', body);

test('eight types at once: each in records, shaped per type, and the body matches the published schema', async ({ server }) => {
  const types = ['SOA', 'NS', 'CAA', 'DS', 'DNSKEY', 'TLSA', 'HTTPS', 'SVCB'];
  const reply = await dns(server, { domain: 'types.test', types });
  assert.is(reply.status, 200);
  const body = reply.json();
  assertMatchesSchema('DnsResult', body);
  assert.equal(Object.keys(body.records), types);
  assert.equal(body.records.SOA, [{ mname: 'ns.types.test', rname: 'hostmaster.types.test', serial: 1, refresh: 3600, retry: 900, expire: 604800, minimum: 60, ttl: 300 }]);
  assert.equal(body.records.NS.map((r: { name: string }) => r.name).sort(), ['ns.types.test', 'ns2.elsewhere.test']);
  assert.is(body.records.DNSKEY.length, 8);
  assert.is(body.resolvers[0].queries.DNSKEY.transport, 'tcp');
  // DS, TLSA and SVCB live at other names of the zone.
  const none = ['DS', 'TLSA', 'SVCB'];
  assert.equal(body.outcomes, Object.fromEntries(types.map((t) => [t, none.includes(t) ? 'no-data' : 'records'])));
});

test('the same records from both resolvers are one set with the same TTL; consistent', async ({ server }) => {
  const body = (await dns(server, { domain: 'naptr.types.test', types: ['NAPTR'] })).json();
  assert.is(body.records.NAPTR.length, 3);
  assert.ok(body.records.NAPTR.some((r: Record<string, unknown>) => r.replacement === '.' && r.regexp === '!^.*$!sip:info@types.test!'));
  assert.is(body.consistent, true);
});

test('one resolver with an SRV record more: the union has it, and the answers are inconsistent', async ({ server }) => {
  const body = (await dns(server, { domain: '_sip._tcp.types.test', types: ['SRV'] })).json();
  assert.is(body.records.SRV.length, 4);
  assert.is(body.consistent, false);
});

test('a CNAME asked for and the chain followed for SRV are one CNAME list, each link once', async ({ server }) => {
  const body = (await dns(server, { domain: 'c1.types.test', types: ['CNAME', 'SRV'] })).json();
  assert.equal(body.records.CNAME, [
    { name: 'c1.types.test', target: 'c2.types.test', ttl: 300 },
    { name: 'c2.types.test', target: 'c3.types.test', ttl: 300 },
    { name: 'c3.types.test', target: 'target.types.test', ttl: 300 },
  ]);
  assert.equal(body.records.SRV, [{ priority: 1, weight: 1, port: 443, target: 'host.types.test', ttl: 300 }]);
  assert.equal(body.resolvers[0].queries.CNAME.answers, [{ name: 'c1.types.test', target: 'c2.types.test', ttl: 300 }]);
});

test('a type the name does not have is an empty list and no-data', async ({ server }) => {
  const body = (await dns(server, { domain: 'ptr.types.test', types: ['TLSA', 'PTR'] })).json();
  assert.equal(body.records.TLSA, []);
  assert.is(body.outcomes.TLSA, 'no-data');
  assert.is(body.records.PTR.length, 2);
});

test('nine types are refused with a pointer at /types', async ({ server }) => {
  const reply = await dns(server, { domain: 'types.test', types: ['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS', 'SOA', 'CAA', 'SRV'] });
  assertProblem(reply, 400, 'validation-failed');
  assert.is(reply.json().errors[0].pointer, '/types');
});

test.run();
