import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { startSilentDns } from '../support/fault-dns';
import { postJson } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { assertProblem } from '../support/problem';
import { startServer, type RunningServer } from '../support/server';

type Silent = Awaited<ReturnType<typeof startSilentDns>>;
const test = suite<{ a: KnotServer; b: KnotServer; silent: Silent; server: RunningServer; mute: RunningServer }>('POST /api/tools/dns');

const records = ['@ A 192.0.2.10', '@ AAAA 2001:db8:0:0::10', '@ MX 10 mail', '@ TXT "v=spf1 -all"', 'mail A 192.0.2.25', 'www CNAME @'];

test.before(async (ctx) => {
  ctx.a = await startKnot([{ domain: 'example.test', records }], '127.0.0.11');
  ctx.b = await startKnot([{ domain: 'example.test', records: [...records, 'only-b A 192.0.2.99'] }], '127.0.0.12');
  ctx.silent = await startSilentDns();
  ctx.server = await startServer({
    NETTOOLS_RESOLVERS: `a=127.0.0.11:${ctx.a.port},b=127.0.0.12:${ctx.b.port},mute=${ctx.silent.address}:${ctx.silent.port}`,
  });
  ctx.mute = await startServer({ NETTOOLS_RESOLVERS: `mute=${ctx.silent.address}:${ctx.silent.port}` });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.mute?.stop();
  await ctx.silent?.stop();
  await ctx.a?.stop();
  await ctx.b?.stop();
});

test('a domain answers merged records and per-resolver detail in the contract shape', async ({ server }) => {
  const reply = await postJson(server.base, '/api/tools/dns', { domain: 'example.test', resolvers: ['a', 'b'] });
  assert.is(reply.status, 200);
  const body = reply.json();
  assertMatchesSchema('DnsResult', body);
  assert.equal(body.records, {
    A: [{ address: '192.0.2.10', ttl: 300 }],
    AAAA: [{ address: '2001:db8::10', ttl: 300 }],
    MX: [{ priority: 10, exchange: 'mail.example.test', ttl: 300 }],
    TXT: [{ value: 'v=spf1 -all', parts: ['v=spf1 -all'], ttl: 300 }],
  });
  assert.is(body.consistent, true);
  assert.equal(body.resolvers.map((r: any) => r.id), ['a', 'b']);
  assert.is(body.resolvers[0].queries.A.rcode, 'NOERROR');
  assert.is(body.resolvers[0].queries.A.transport, 'udp');
});

test('a silent resolver times out while the others answer', async ({ server }) => {
  const body = (await postJson(server.base, '/api/tools/dns', { domain: 'example.test', types: ['A'], timeoutMs: 300 })).json();
  assertMatchesSchema('DnsResult', body);
  assert.equal(body.resolvers[2].queries.A, { error: 'timeout' });
  assert.equal(body.records.A, [{ address: '192.0.2.10', ttl: 300 }]);
});

test('resolvers that disagree make consistent false', async ({ server }) => {
  const body = (await postJson(server.base, '/api/tools/dns', { domain: 'only-b.example.test', types: ['A'], resolvers: ['a', 'b'] })).json();
  assert.is(body.consistent, false);
  assert.is(body.resolvers[0].queries.A.rcode, 'NXDOMAIN');
});

test('when no resolver answers anything: 504 upstream-timeout carrying the resolvers', async ({ mute }) => {
  const reply = await postJson(mute.base, '/api/tools/dns', { domain: 'example.test', types: ['A', 'MX'], timeoutMs: 200 });
  const body = assertProblem(reply, 504, 'upstream-timeout');
  assertMatchesSchema('Problem', body);
  assert.equal(body.resolvers, [{ id: 'mute', address: '127.0.0.1', queries: { A: { error: 'timeout' }, MX: { error: 'timeout' } } }]);
});

test('an unknown resolver id answers 400 at its pointer', async ({ server }) => {
  const body = assertProblem(await postJson(server.base, '/api/tools/dns', { domain: 'example.test', resolvers: ['a', 'google'] }), 400, 'validation-failed');
  assert.is(body.errors[0].pointer, '/resolvers/1');
});

test.run();
