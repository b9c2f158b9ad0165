import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { postJson, request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { freeTcpPort } from '../support/ports';
import { assertProblem } from '../support/problem';
import { startServer, type RunningServer } from '../support/server';
import { startTlsSites, type TlsSites } from '../support/tls-sites';

// POST /api/tools/tls against a real nginx serving certificates made by openssl for this test.
const test = suite<{ knot: KnotServer; sites: TlsSites; open: RunningServer; plain: RunningServer; guarded: RunningServer; tight: RunningServer }>('POST /api/tools/tls');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'tls.test', records: ['good A 127.0.0.1'] }], '127.0.0.171');
  ctx.sites = await startTlsSites();
  const common = { NETTOOLS_RESOLVERS: `knot=127.0.0.171:${ctx.knot.port}`, NETTOOLS_RATE_LIMIT: '1000/1s' };
  const open = { ...common, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' };
  ctx.open = await startServer({ ...open, NETTOOLS_TLS_CA_FILE: ctx.sites.caFile });
  ctx.plain = await startServer(open);
  ctx.guarded = await startServer(common);
  ctx.tight = await startServer({ ...open, NETTOOLS_TARGET_CONNECTIONS_PER_MINUTE: '1' });
});

test.after(async (ctx) => {
  for (const server of [ctx.open, ctx.plain, ctx.guarded, ctx.tight]) await server?.stop();
  await ctx.sites?.stop();
  await ctx.knot?.stop();
});

const tls = (server: RunningServer, body: unknown) => postJson(server.base, '/api/tools/tls', body);

// A server on loopback that answers whatever comes with a line of plain text and closes: not TLS.
function listenPlain(): Promise<net.Server> {
  return new Promise((resolve) => {
    const server = net.createServer((s) => s.end('HTTP/1.0 400 Bad Request\r\n\r\n'));
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const port = (server: net.Server) => (server.address() as net.AddressInfo).port;

test('a leaf issued by a trusted CA verifies, and its facts are the certificate openssl made', async ({ open, sites }) => {
  const reply = await tls(open, { host: '127.0.0.1', port: sites.ports.good, serverName: 'good.tls.test' });
  assert.is(reply.status, 200, reply.text);
  const body = reply.json();
  assertMatchesSchema('TlsResult', body);
  assert.is(body.status, 'handshake');
  assert.is(body.verified, true);
  assert.is(body.verifyError, undefined);
  assert.is(body.serverName, 'good.tls.test');
  assert.is(body.protocol, 'TLSv1.3');
  assert.match(body.cipher, /^TLS_/);
  assert.is(body.ocspStapled, false);
  const [leaf, anchor] = body.certificates;
  assert.equal([leaf.subject, leaf.issuer, leaf.sans, leaf.keyType, leaf.keyBits], ['good.tls.test', 'nettools test CA', ['DNS:good.tls.test'], 'ec', 256]);
  assert.ok(leaf.daysLeft >= 2 && leaf.daysLeft <= 3, String(leaf.daysLeft));
  assert.is(anchor.subject, 'nettools test CA');
  assert.is(anchor.sha256, new X509Certificate(readFileSync(sites.caFile)).fingerprint256);
  assert.ok(body.timings.connectMs > 0 && body.timings.handshakeMs >= body.timings.connectMs);
});

test('the trust anchor that ends the chain is marked trustAnchor, the leaf the server sent is not', async ({ open, sites }) => {
  const body = (await tls(open, { host: 'good.tls.test', port: sites.ports.good })).json();
  assertMatchesSchema('TlsResult', body);
  assert.equal(body.certificates.map((c: { trustAnchor: boolean }) => c.trustAnchor), [false, true]);
});

test('a name resolves through the configured resolvers and is the SNI and the name checked', async ({ open, sites }) => {
  const body = (await tls(open, { host: 'good.tls.test', port: sites.ports.good })).json();
  assertMatchesSchema('TlsResult', body);
  assert.is(body.address, '127.0.0.1');
  assert.is(body.serverName, 'good.tls.test');
  assert.is(body.verified, true);
});

test('an expired leaf is a 200 with verified false and CERT_HAS_EXPIRED, days left negative', async ({ open, sites }) => {
  const body = (await tls(open, { host: '127.0.0.1', port: sites.ports.expired, serverName: 'good.tls.test' })).json();
  assertMatchesSchema('TlsResult', body);
  assert.is(body.status, 'handshake');
  assert.is(body.verified, false);
  assert.is(body.verifyError, 'CERT_HAS_EXPIRED');
  assert.ok(body.certificates[0].daysLeft < 0);
});

test('a leaf for another name is ERR_TLS_CERT_ALTNAME_INVALID', async ({ open, sites }) => {
  const body = (await tls(open, { host: '127.0.0.1', port: sites.ports.wrongName, serverName: 'good.tls.test' })).json();
  assert.is(body.verified, false);
  assert.is(body.verifyError, 'ERR_TLS_CERT_ALTNAME_INVALID');
  assert.equal(body.certificates[0].sans, ['DNS:other.tls.test']);
  assert.is(body.certificates[0].sansCount, 1);
});

test('a certificate of 150 names lists the first 100 and counts them all', async ({ open, sites }) => {
  const body = (await tls(open, { host: '127.0.0.1', port: sites.ports.manyNames, serverName: 'n0.tls.test' })).json();
  assertMatchesSchema('TlsResult', body);
  assert.is(body.verified, true);
  const [leaf] = body.certificates;
  assert.is(leaf.sansCount, 150);
  assert.is(leaf.sans.length, 100);
  assert.equal(leaf.sans.slice(0, 2), ['DNS:n0.tls.test', 'DNS:n1.tls.test']);
});

test('a self-signed leaf is DEPTH_ZERO_SELF_SIGNED_CERT, its chain one certificate', async ({ open, sites }) => {
  const body = (await tls(open, { host: '127.0.0.1', port: sites.ports.selfSigned, serverName: 'self.tls.test' })).json();
  assert.is(body.verifyError, 'DEPTH_ZERO_SELF_SIGNED_CERT');
  assert.is(body.certificates.length, 1);
});

test('without NETTOOLS_TLS_CA_FILE the test CA is unknown: UNABLE_TO_VERIFY_LEAF_SIGNATURE', async ({ plain, sites }) => {
  const body = (await tls(plain, { host: '127.0.0.1', port: sites.ports.good, serverName: 'good.tls.test' })).json();
  assert.is(body.verified, false);
  assert.is(body.verifyError, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
});

test('an IP literal host sends no SNI and its certificate is checked against the address', async ({ open, sites }) => {
  const body = (await tls(open, { host: '127.0.0.1', port: sites.ports.good })).json();
  assertMatchesSchema('TlsResult', body);
  assert.is(body.serverName, null);
  assert.is(body.verifyError, 'ERR_TLS_CERT_ALTNAME_INVALID');
});

test('a closed port is a 200 with status refused, code ECONNREFUSED, and no session facts', async ({ open }) => {
  const body = (await tls(open, { host: '127.0.0.1', port: await freeTcpPort('127.0.0.1') })).json();
  assertMatchesSchema('TlsResult', body);
  assert.is(body.status, 'refused');
  assert.is(body.code, 'ECONNREFUSED');
  assert.is(body.verified, undefined);
  assert.is(body.certificates, undefined);
});

test('a port that answers plain text is a 200 with status handshake-failed and the error code', async ({ open }) => {
  const server = await listenPlain();
  try {
    const body = (await tls(open, { host: '127.0.0.1', port: port(server) })).json();
    assertMatchesSchema('TlsResult', body);
    assert.is(body.status, 'handshake-failed');
    assert.match(body.code, /^ERR_SSL_|^ECONNRESET$/);
    assert.ok(body.timings.connectMs > 0);
  } finally {
    server.close();
  }
});

test('a port that accepts and says nothing is a 200 with status timeout, connected', async ({ open }) => {
  const held: net.Socket[] = [];
  const server = net.createServer((s) => held.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const body = (await tls(open, { host: '127.0.0.1', port: port(server), timeoutMs: 300 })).json();
    assertMatchesSchema('TlsResult', body);
    assert.is(body.status, 'timeout');
    assert.is(body.code, undefined);
    assert.ok(body.timings.connectMs > 0);
    assert.is(body.timings.handshakeMs, undefined);
  } finally {
    for (const s of held) s.destroy();
    server.close();
  }
});

test('port 25 is refused by the port policy with 422 target-forbidden, range port', async ({ open }) => {
  const problem = assertProblem(await tls(open, { host: '127.0.0.1', port: 25 }), 422, 'target-forbidden');
  assert.is(problem.range, 'port');
});

test('loopback is refused by default with 422 target-forbidden', async ({ guarded, sites }) => {
  assert.is(assertProblem(await tls(guarded, { host: '127.0.0.1', port: sites.ports.good }), 422, 'target-forbidden').range, 'loopback');
});

test('a check spends one connection of the address and port budget the tcp check spends too', async ({ tight, sites }) => {
  assert.is((await tls(tight, { host: '127.0.0.1', port: sites.ports.selfSigned })).status, 200);
  assertProblem(await tls(tight, { host: '127.0.0.1', port: sites.ports.selfSigned }), 429, 'target-rate-limited');
  assertProblem(await postJson(tight.base, '/api/tools/tcp', { host: '127.0.0.1', port: sites.ports.selfSigned, count: 1 }), 429, 'target-rate-limited');
});

test('bad fields are 400 validation-failed: port 0, timeoutMs 50, a server name with a space or that is an address, an unknown field', async ({ open }) => {
  for (const body of [{ host: '127.0.0.1', port: 0 }, { host: '127.0.0.1', timeoutMs: 50 }, { host: '127.0.0.1', serverName: 'a b' }, { host: '127.0.0.1', serverName: '192.0.2.1' }, { host: '127.0.0.1', verify: false }]) {
    assertProblem(await tls(open, body), 400, 'validation-failed');
  }
});

test('streamed (NDJSON), a check is its start event and then its summary, the JSON body', async ({ open, sites }) => {
  const reply = await request(open.base, '/api/tools/tls', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' }, body: JSON.stringify({ host: '127.0.0.1', port: sites.ports.good, serverName: 'good.tls.test' }) });
  assert.is(reply.status, 200, reply.text);
  const events = reply.text.trim().split('\n').map((line) => JSON.parse(line));
  assert.equal(events.map((e) => e.event), ['start', 'summary']);
  assertMatchesSchema('TlsStreamEvent', events[0]);
  assert.is(events[0].data.port, sites.ports.good);
  assertMatchesSchema('TlsResult', events[1].data);
  assert.is(events[1].data.verified, true);
});

test.run();
