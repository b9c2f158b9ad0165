// clientSubnet through the API: refused past /24 and /56 at its pointer; Knot, which ignores ECS unless
// configured for it, reports it ignored; a body without clientSubnet has no such field.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { postJson } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { assertProblem } from '../support/problem';
import { startServer, type RunningServer } from '../support/server';

const test = suite<{ knot: KnotServer; server: RunningServer }>('POST /api/tools/dns, clientSubnet');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'ecs.test', records: ['www A 192.0.2.90'] }], '127.0.0.114');
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: `knot=127.0.0.114:${ctx.knot.port}` });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.knot?.stop();
});

const dns = (server: RunningServer, body: Record<string, unknown>) => postJson(server.base, '/api/tools/dns', body);

test('Knot ignores ECS: each query says so, and the body matches the schema', async ({ server }) => {
  const reply = await dns(server, { domain: 'www.ecs.test', types: ['A'], clientSubnet: '203.0.113.0/24' });
  assert.is(reply.status, 200);
  const body = reply.json();
  assertMatchesSchema('DnsResult', body);
  assert.equal(body.resolvers[0].queries.A.clientSubnet, { ignored: true });
});

test('an IPv6 prefix of /56 is sent', async ({ server }) => {
  const body = (await dns(server, { domain: 'www.ecs.test', types: ['A'], clientSubnet: '2001:db8:1234:5600::/56' })).json();
  assert.equal(body.resolvers[0].queries.A.clientSubnet, { ignored: true });
});

test('an IPv4 prefix more specific than /24 is refused at its pointer', async ({ server }) => {
  const body = assertProblem(await dns(server, { domain: 'www.ecs.test', clientSubnet: '203.0.113.0/25' }), 400, 'validation-failed');
  assert.is(body.errors[0].pointer, '/clientSubnet');
  assert.match(body.errors[0].message, /\/24/);
});

test('an IPv6 prefix more specific than /56, or a bare address, is refused', async ({ server }) => {
  for (const clientSubnet of ['2001:db8:1234:5600::/57', '203.0.113.7']) {
    const body = assertProblem(await dns(server, { domain: 'www.ecs.test', clientSubnet }), 400, 'validation-failed');
    assert.is(body.errors[0].pointer, '/clientSubnet');
  }
});

test('a prefix with host bits set is refused with the prefix meant', async ({ server }) => {
  const body = assertProblem(await dns(server, { domain: 'www.ecs.test', clientSubnet: '203.0.113.9/24' }), 400, 'validation-failed');
  assert.match(body.errors[0].message, /203\.0\.113\.0\/24/);
});

test('without clientSubnet no query reports one', async ({ server }) => {
  const body = (await dns(server, { domain: 'www.ecs.test', types: ['A'] })).json();
  assert.equal(Object.keys(body.resolvers[0].queries.A), ['rcode', 'flags', 'rttMs', 'transport', 'answers']);
});

test.run();
