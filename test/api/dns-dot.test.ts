// DoT resolvers through the API: one request to a plain resolver and a DoT one (a loopback unbound
// serving TLS with a test CA, NETTOOLS_TLS_CA_FILE naming it), and one configured under a name its
// certificate is not for.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { makeDotCertificates, type DotCertificates } from '../support/dot-certificates';
import { postJson, request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { parsePromText, sampleValue } from '../support/prom-text';
import { startServer, type RunningServer } from '../support/server';
import { startUnbound, type UnboundServer } from '../support/unbound';

const test = suite<{ certs: DotCertificates; knot: KnotServer; unbound: UnboundServer; server: RunningServer }>('POST /api/tools/dns, DoT resolvers');

const NAME = 'dot.api.test';

test.before(async (ctx) => {
  ctx.certs = makeDotCertificates(NAME);
  ctx.knot = await startKnot([{ domain: 'dot.test', records: ['www A 192.0.2.53', 'www AAAA 2001:db8::53'] }], '127.0.0.124');
  ctx.unbound = await startUnbound('127.0.0.125', [{ zone: 'dot.test', address: ctx.knot.address, port: ctx.knot.port }], [], { tls: { pem: ctx.certs.pem, key: ctx.certs.key } });
  const dot = `tls://${NAME}@127.0.0.125:${ctx.unbound.tlsPort}`;
  const wrong = `tls://elsewhere.api.test@127.0.0.125:${ctx.unbound.tlsPort}`;
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: `plain=127.0.0.125:${ctx.unbound.port},dot=${dot},wrong=${wrong}`, NETTOOLS_TLS_CA_FILE: ctx.certs.caFile });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.unbound?.stop();
  await ctx.knot?.stop();
  ctx.certs?.remove();
});

const dns = (server: RunningServer, body: Record<string, unknown>) => postJson(server.base, '/api/tools/dns', body);

test('a plain and a DoT resolver in one request: transport udp and tls, the same records, consistent', async ({ server }) => {
  const reply = await dns(server, { domain: 'www.dot.test', types: ['A', 'AAAA'], resolvers: ['plain', 'dot'] });
  assert.is(reply.status, 200);
  const body = reply.json();
  assertMatchesSchema('DnsResult', body);
  const [plain, dot] = body.resolvers;
  assert.equal([plain.queries.A.transport, dot.queries.A.transport, dot.queries.AAAA.transport], ['udp', 'tls', 'tls']);
  assert.equal(dot.queries.A.answers.map((a: { address: string }) => a.address), ['192.0.2.53']);
  assert.is(body.consistent, true);
});

test('a DoT resolver whose certificate is not for its configured name: its error and reason, the others answer', async ({ server }) => {
  const reply = await dns(server, { domain: 'www.dot.test', types: ['A'], resolvers: ['wrong', 'dot'] });
  assert.is(reply.status, 200);
  const body = reply.json();
  assertMatchesSchema('DnsResult', body);
  const byId = (id: string) => body.resolvers.find((r: { id: string }) => r.id === id);
  const [wrong, dot] = [byId('wrong'), byId('dot')];
  assert.equal(wrong.queries.A, { error: 'tls-certificate-invalid', detail: 'hostname mismatch' });
  assert.is(dot.queries.A.rcode, 'NOERROR');
});

test('DoT connections opened are counted in the engine events metric, and reused by the next request', async ({ server }) => {
  const opened = async () => sampleValue(parsePromText((await request(server.base, '/metrics')).text), 'nettools_dns_engine_events_total', { event: 'tlsConnections' });
  await dns(server, { domain: 'www.dot.test', types: ['AAAA'], resolvers: ['dot'] });
  const before = await opened();
  assert.ok(before >= 1, `tlsConnections ${before}`);
  const reply = await dns(server, { domain: 'www.dot.test', types: ['A'], resolvers: ['dot'] });
  assert.is(reply.json().resolvers[0].queries.A.transport, 'tls');
  assert.is(await opened(), before);
});

test.run();
