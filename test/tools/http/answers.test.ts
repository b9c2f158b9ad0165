import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../../support/contract';
import { postJson } from '../../support/http';
import { startHttpSites, type HttpSites } from '../../support/http-sites';
import { startKnot, type KnotServer } from '../../support/knot';
import { freeTcpPort } from '../../support/ports';
import { assertProblem } from '../../support/problem';
import { startServer, type RunningServer } from '../../support/server';

// POST /api/tools/http against a real nginx on loopback: what one answer shows.
const test = suite<{ knot: KnotServer; sites: HttpSites; server: RunningServer; guarded: RunningServer; capped: RunningServer }>('http check: answers');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'http.test', records: ['site A 127.0.0.1', 'other A 127.0.0.2'] }], '127.0.0.173');
  ctx.sites = await startHttpSites('other.http.test');
  const common = { NETTOOLS_RESOLVERS: `knot=127.0.0.173:${ctx.knot.port}`, NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_HTTP_CONTACT: 'ops@example.test' };
  ctx.server = await startServer({ ...common, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
  ctx.guarded = await startServer(common);
  ctx.capped = await startServer({ ...common, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_HTTP_BODY_MAX_BYTES: '1000' });
});

test.after(async (ctx) => {
  for (const server of [ctx.server, ctx.guarded, ctx.capped]) await server?.stop();
  await ctx.sites?.stop();
  await ctx.knot?.stop();
});

const http = (server: RunningServer, body: unknown) => postJson(server.base, '/api/tools/http', body);

test('a GET is answered with its status, version, lower-cased headers, body size and hash, and each phase', async ({ server, sites }) => {
  const reply = await http(server, { url: `http://127.0.0.1:${sites.main}/` });
  assert.is(reply.status, 200, reply.text);
  const body = reply.json();
  assertMatchesSchema('HttpResult', body);
  assert.equal([body.status, body.httpVersion, body.address, body.port, body.method], [200, '1.1', '127.0.0.1', sites.main, 'GET']);
  assert.is(body.headers['content-length'], '6');
  assert.match(body.headers.server, /^nginx/);
  assert.equal(body.body, { bytes: 6, truncated: false, sha256: createHash('sha256').update('hello\n').digest('hex') });
  assert.ok(body.timings.connectMs > 0 && body.timings.firstByteMs >= 0 && body.timings.transferMs >= 0);
  assert.is(body.timings.tlsMs, undefined);
  assert.is(body.tls, undefined);
  assert.equal(body.redirects, []);
});

test('a name is asked of the configured resolvers and its address connected to', async ({ server, sites }) => {
  const body = (await http(server, { url: `http://site.http.test:${sites.main}/` })).json();
  assert.is(body.address, '127.0.0.1');
  assert.is(body.status, 200);
  assert.is(body.url, `http://site.http.test:${sites.main}/`);
});

test('localhost is asked of the configured resolvers, never the system: the test resolver refuses it, 502 upstream-failed', async ({ server, sites }) => {
  const problem = assertProblem(await http(server, { url: `http://localhost:${sites.main}/` }), 502, 'upstream-failed');
  assert.equal(problem.resolvers, [{ id: 'knot', address: '127.0.0.173', rcode: 'REFUSED' }]);
});

test('an IPv6 literal in brackets is connected to as it is, ipVersion 6', async ({ server }) => {
  const site = createServer((_req, res) => res.end('six\n'));
  await new Promise<void>((r) => site.listen(0, '::1', r));
  try {
    const body = (await http(server, { url: `http://[::1]:${(site.address() as AddressInfo).port}/` })).json();
    assertMatchesSchema('HttpResult', body);
    assert.equal([body.status, body.address, body.ipVersion, body.body.bytes], [200, '::1', 6, 4]);
  } finally {
    site.closeAllConnections();
    site.close();
  }
});

test('HEAD is answered with the headers and no body bytes', async ({ server, sites }) => {
  const body = (await http(server, { url: `http://127.0.0.1:${sites.main}/`, method: 'HEAD' })).json();
  assertMatchesSchema('HttpResult', body);
  assert.is(body.status, 200);
  assert.is(body.body.bytes, 0);
});

test('a Set-Cookie value is replaced by its length', async ({ server, sites }) => {
  const body = (await http(server, { url: `http://127.0.0.1:${sites.main}/cookie` })).json();
  assert.is(body.headers['set-cookie'], `${'session=0123456789; Path=/'.length} bytes`);
});

test('a 10 MB body is read up to the cap, hashed so far, and marked truncated', async ({ capped, sites }) => {
  const body = (await http(capped, { url: `http://127.0.0.1:${sites.main}/big` })).json();
  assertMatchesSchema('HttpResult', body);
  assert.is(body.headers['content-length'], String(sites.bigBytes));
  assert.equal(body.body, { bytes: 1000, truncated: true, sha256: createHash('sha256').update(Buffer.alloc(1000, 0x61)).digest('hex') });
});

test('a 10 MB body is cut at the default cap of 1 MiB', async ({ server, sites }) => {
  const body = (await http(server, { url: `http://127.0.0.1:${sites.main}/big` })).json();
  assert.equal([body.body.bytes, body.body.truncated], [1024 * 1024, true]);
});

test('a closed port is a 200 with connect refused and ECONNREFUSED', async ({ server }) => {
  const body = (await http(server, { url: `http://127.0.0.1:${await freeTcpPort('127.0.0.1')}/` })).json();
  assertMatchesSchema('HttpResult', body);
  assert.equal([body.connect, body.code, body.status], ['refused', 'ECONNREFUSED', undefined]);
});

test('port 25 is refused by the port policy, before anything is resolved: 422 target-forbidden, range port', async ({ server }) => {
  assert.is(assertProblem(await http(server, { url: 'http://nowhere.http.test:25/' }), 422, 'target-forbidden').range, 'port');
});

test('loopback is refused by default with 422 target-forbidden', async ({ guarded, sites }) => {
  assert.is(assertProblem(await http(guarded, { url: `http://127.0.0.1:${sites.main}/` }), 422, 'target-forbidden').range, 'loopback');
});

test('a header outside the allow-list is 400 validation-failed', async ({ server, sites }) => {
  const problem = assertProblem(await http(server, { url: `http://127.0.0.1:${sites.main}/`, headers: { Cookie: 'a=b' } }), 400, 'validation-failed');
  assert.is(problem.errors[0].pointer, '/headers/Cookie');
});

test('a header value with a control character is 400 validation-failed', async ({ server, sites }) => {
  assertProblem(await http(server, { url: `http://127.0.0.1:${sites.main}/`, headers: { Accept: 'text/html\r\nX-Evil: 1' } }), 400, 'validation-failed');
});

test('a URL with credentials, another scheme or over 2048 characters is 400 validation-failed', async ({ server, sites }) => {
  for (const url of [`http://user:pw@127.0.0.1:${sites.main}/`, 'ftp://127.0.0.1/', `http://127.0.0.1:${sites.main}/${'a'.repeat(2048)}`]) {
    const problem = assertProblem(await http(server, { url }), 400, 'validation-failed');
    assert.is(problem.errors[0].pointer, '/url');
  }
});

test('timeoutMs, followRedirects and method are bounded: 400 validation-failed', async ({ server, sites }) => {
  const url = `http://127.0.0.1:${sites.main}/`;
  for (const extra of [{ timeoutMs: 99 }, { timeoutMs: 30_001 }, { followRedirects: 6 }, { method: 'POST' }]) {
    assertProblem(await http(server, { url, ...extra }), 400, 'validation-failed');
  }
});

test.run();
