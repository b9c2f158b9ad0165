import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../../support/contract';
import { postJson } from '../../support/http';
import { startKnot, type KnotServer } from '../../support/knot';
import { startServer, type RunningServer } from '../../support/server';
import { startTlsSites, type TlsSites } from '../../support/tls-sites';

// https URLs against a real nginx with certificates openssl made for the test (test/support/tls-sites.ts),
// the test CA trusted through NETTOOLS_TLS_CA_FILE.
const test = suite<{ knot: KnotServer; sites: TlsSites; server: RunningServer }>('http check: https');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'tls.test', records: ['good A 127.0.0.1'] }], '127.0.0.175');
  ctx.sites = await startTlsSites();
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: `knot=127.0.0.175:${ctx.knot.port}`, NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TLS_CA_FILE: ctx.sites.caFile });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.sites?.stop();
  await ctx.knot?.stop();
});

const http = (server: RunningServer, body: unknown) => postJson(server.base, '/api/tools/http', body);

test('a certificate that expires in 3 days verifies, the name is the SNI, and the answer comes over TLS', async ({ server, sites }) => {
  const reply = await http(server, { url: `https://good.tls.test:${sites.ports.good}/` });
  assert.is(reply.status, 200, reply.text);
  const body = reply.json();
  assertMatchesSchema('HttpResult', body);
  assert.is(body.status, 204);
  assert.equal([body.tls.verified, body.tls.protocol], [true, 'TLSv1.3']);
  const [leaf] = body.tls.certificates;
  assert.is(leaf.subject, 'good.tls.test');
  assert.ok(leaf.daysLeft >= 2 && leaf.daysLeft <= 3, String(leaf.daysLeft));
  assert.ok(body.timings.connectMs > 0 && body.timings.tlsMs > 0 && body.timings.firstByteMs >= 0);
});

test('an expired certificate ends the check as a failed handshake, CERT_HAS_EXPIRED, before any request', async ({ server, sites }) => {
  const body = (await http(server, { url: `https://good.tls.test:${sites.ports.expired}/` })).json();
  assertMatchesSchema('HttpResult', body);
  assert.equal([body.handshake, body.code, body.status, body.tls.verified], ['failed', 'CERT_HAS_EXPIRED', undefined, false]);
  assert.ok(body.tls.certificates[0].daysLeft < 0);
  assert.is(body.timings.firstByteMs, undefined);
});

test('with verify false an expired certificate is reported and the request made', async ({ server, sites }) => {
  const body = (await http(server, { url: `https://good.tls.test:${sites.ports.expired}/`, verify: false })).json();
  assertMatchesSchema('HttpResult', body);
  assert.equal([body.status, body.handshake, body.tls.verified, body.tls.verifyError], [204, undefined, false, 'CERT_HAS_EXPIRED']);
});

test('a certificate for another name is a failed handshake, ERR_TLS_CERT_ALTNAME_INVALID', async ({ server, sites }) => {
  const body = (await http(server, { url: `https://good.tls.test:${sites.ports.wrongName}/` })).json();
  assert.equal([body.handshake, body.code], ['failed', 'ERR_TLS_CERT_ALTNAME_INVALID']);
  assert.equal(body.tls.certificates[0].sans, ['DNS:other.tls.test']);
});

test('an IP-literal URL is verified against the address: a certificate for 127.0.0.1 verifies', async ({ server, sites }) => {
  const body = (await http(server, { url: `https://127.0.0.1:${sites.ports.address}/` })).json();
  assertMatchesSchema('HttpResult', body);
  assert.equal([body.status, body.tls.verified, body.handshake], [204, true, undefined]);
});

test('an IP-literal URL to a certificate for a name only is a failed handshake, ERR_TLS_CERT_ALTNAME_INVALID', async ({ server, sites }) => {
  const body = (await http(server, { url: `https://127.0.0.1:${sites.ports.good}/` })).json();
  assert.equal([body.handshake, body.code], ['failed', 'ERR_TLS_CERT_ALTNAME_INVALID']);
});

test.run();
