import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startHttpSites, type HttpSites } from '../support/http-sites';
import { startServer, type RunningServer } from '../support/server';
import { cli } from './hostile-answers';
import { json, startHostile, type Hostile } from './hostile-server';

// `nettools http URL`: what it asks, what it prints (a curl -w line of timings), and its exit status for
// CI (--expect-status); against the real server and nginx, and against a scripted server for the rest.
const test = suite<{ hostile: Hostile; sites: HttpSites; open: RunningServer }>('nettools http');

test.before(async (ctx) => {
  ctx.hostile = await startHostile();
  ctx.sites = await startHttpSites('other.http.test');
  ctx.open = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s' });
});

test.after(async (ctx) => {
  await ctx.open?.stop();
  await ctx.sites?.stop();
  await ctx.hostile?.close();
});

const timings = { resolveMs: 1, connectMs: 2, tlsMs: 3, firstByteMs: 4, transferMs: 5, totalMs: 15 };
const answered = (over: Record<string, unknown> = {}) => ({
  url: 'https://a.test/', finalUrl: 'https://a.test/', method: 'GET', address: '192.0.2.1', ipVersion: 4, port: 443, status: 200, httpVersion: '1.1',
  headers: {}, body: { bytes: 5, truncated: false, sha256: 'ab' }, timings, redirects: [], durationMs: 15, startedAt: '2026-11-27T12:00:00.000Z', ...over,
});

test('against the real server: a redirect followed, the answer and a curl -w line, exit 0', async ({ open, sites }) => {
  const r = await cli(['http', `http://127.0.0.1:${sites.main}/loop`, '--follow', '1', '--expect-status', '302', '--server', open.base]);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, `302 http://127.0.0.1:${sites.main}/loop (127.0.0.1:${sites.main}) -> http://127.0.0.1:${sites.main}/loop`);
  assert.match(r.out, `HTTP GET http://127.0.0.1:${sites.main}/loop (127.0.0.1:${sites.main}) via ${open.base}: 302 HTTP/1.1`);
  assert.match(r.out, /time_namelookup=\d+\.\d{6} time_connect=\d+\.\d{6} time_appconnect=0\.000000 time_starttransfer=\d+\.\d{6} time_total=\d+\.\d{6}/);
});

test('URL, --follow, --head and --timeout are the request', async ({ hostile }) => {
  hostile.answer(json(200, answered()));
  const r = await cli(['http', 'https://a.test/', '--follow', '2', '--head', '--timeout', '3000', '--server', hostile.base]);
  assert.is(r.code, 0, r.err);
  assert.equal(hostile.requests.at(-1), { url: 'https://a.test/', method: 'HEAD', followRedirects: 2, timeoutMs: 3000 });
});

test('the timing line adds the phases up as curl -w counts them, from the start', async ({ hostile }) => {
  hostile.answer(json(200, answered()));
  const r = await cli(['http', 'https://a.test/', '--server', hostile.base]);
  assert.match(r.out, 'time_namelookup=0.001000 time_connect=0.003000 time_appconnect=0.006000 time_starttransfer=0.010000 time_total=0.015000');
});

test('a status not among --expect-status exits 1 and says so; without it, a status of 400 or more does', async ({ hostile }) => {
  hostile.answer(json(200, answered({ status: 301 })));
  const r = await cli(['http', 'https://a.test/', '--expect-status', '200,204', '--server', hostile.base]);
  assert.is(r.code, 1);
  assert.match(r.err, 'answered 301, not one of 200, 204');
  hostile.answer(json(200, answered({ status: 503 })));
  assert.is((await cli(['http', 'https://a.test/', '--server', hostile.base])).code, 1);
});

test('no answer (a refused connection, a certificate that does not verify) exits 1 and says where it ended', async ({ hostile }) => {
  const { status: _s, httpVersion: _v, body: _b, ...bare } = answered();
  hostile.answer(json(200, { ...bare, connect: 'refused', code: 'ECONNREFUSED', timings: { resolveMs: 1, totalMs: 2 } }));
  const refused = await cli(['http', 'https://a.test/', '--server', hostile.base]);
  assert.is(refused.code, 1);
  assert.match(refused.err, 'no answer from https://a.test/: connect refused (ECONNREFUSED)');
  hostile.answer(json(200, { ...bare, handshake: 'failed', code: 'CERT_HAS_EXPIRED', timings: { resolveMs: 1, connectMs: 1, tlsMs: 1, totalMs: 3 } }));
  const expired = await cli(['http', 'https://a.test/', '--server', hostile.base]);
  assert.is(expired.code, 1);
  assert.match(expired.err, 'TLS handshake failed (CERT_HAS_EXPIRED)');
});

test('a problem answer exits 3; a malformed --expect-status is a usage error (exit 2)', async ({ hostile }) => {
  hostile.answer(json(422, { type: 'x', title: 'Target address is in a refused range', status: 422, detail: 'port 25 is refused', code: 'target-forbidden', range: 'port' }));
  assert.is((await cli(['http', 'http://a.test:25/', '--server', hostile.base])).code, 3);
  const r = await cli(['http', 'https://a.test/', '--expect-status', 'ok', '--server', hostile.base]);
  assert.is(r.code, 2);
  assert.match(r.err, '--expect-status must be statuses separated by commas');
});

test.run();
