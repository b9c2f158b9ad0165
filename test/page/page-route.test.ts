import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DOCS_CSP } from '../../src/docs/docs-assets';
import { request } from '../support/http';
import { assertProblem } from '../support/problem';
import { startServer, type RunningServer } from '../support/server';

// GET / on the real server: the live page and its files, under the /docs CSP and outside the rate limits.
// A bucket of 2 tokens: twenty page loads would empty it if the page counted.
const test = suite<{ server: RunningServer }>('GET /, the live page');

test.before(async (ctx) => {
  ctx.server = await startServer({ NETTOOLS_RATE_LIMIT: '2/60s' });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
});

test('GET / answers the page as HTML with the /docs CSP, nosniff and an ETag', async ({ server }) => {
  const page = await request(server.base, '/');
  assert.is(page.status, 200);
  assert.is(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.is(page.headers['content-security-policy'], DOCS_CSP);
  assert.is(page.headers['x-content-type-options'], 'nosniff');
  assert.match(String(page.headers['etag']), /^"[A-Za-z0-9_-]+"$/);
  assert.match(page.text, '<script type="module" src="/page/main.js"></script>');
});

test('the page loads nothing from another origin and has no inline script or style', async ({ server }) => {
  const page = await request(server.base, '/');
  assert.not.match(page.text, /(src|href)="(https?:)?\/\//);
  assert.not.match(page.text, /<script>|<script(?![^>]*\ssrc=)[^>]*>/);
  assert.not.match(page.text, /<style|\sstyle=|\son[a-z]+=/);
});

test('the script modules and the styles are served with their types and the CSP', async ({ server }) => {
  const files = [['/page/main.js', 'text/javascript'], ['/page/ping-chart.js', 'text/javascript'], ['/page/api.js', 'text/javascript'], ['/page/client/index.js', 'text/javascript'], ['/page/client/stream.js', 'text/javascript'], ['/page/live.css', 'text/css']] as const;
  for (const [path, type] of files) {
    const file = await request(server.base, path);
    assert.is(file.status, 200, path);
    assert.is(file.headers['content-type'], `${type}; charset=utf-8`, path);
    assert.is(file.headers['content-security-policy'], DOCS_CSP, path);
    assert.ok(file.text.length > 0, path);
  }
});

// Followed as the browser follows them, from the entry through the typed client: each import a path
// relative to its module (no bare name, no node: module, as a browser without a bundler needs).
test("every module the page imports is served, the client's among them, and each import is relative", async ({ server }) => {
  const pending = ['/page/main.js'];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const path = pending.pop() as string;
    if (seen.has(path)) continue;
    seen.add(path);
    const file = await request(server.base, path);
    assert.is(file.status, 200, path);
    for (const [, spec] of file.text.matchAll(/(?:\bfrom|^import)\s*'([^']+)'/gm)) {
      assert.match(String(spec), /^\.\.?\/.*\.js$/, `${path} imports ${spec}`);
      pending.push(new URL(String(spec), `http://page${path}`).pathname);
    }
  }
  assert.ok(seen.has('/page/client/index.js') && seen.has('/page/client/stream.js') && seen.has('/page/api.js'), [...seen].join());
});

test("the client's command line (Node only) is not served", async ({ server }) => {
  assert.is((await request(server.base, '/page/client/cli/main.js')).status, 404);
});

test('a matching If-None-Match is 304 with no body', async ({ server }) => {
  const first = await request(server.base, '/');
  const again = await request(server.base, '/', { headers: { 'if-none-match': String(first.headers['etag']) } });
  assert.is(again.status, 304);
  assert.is(again.text, '');
});

test('HEAD / answers the GET headers without a body', async ({ server }) => {
  const get = await request(server.base, '/');
  const head = await request(server.base, '/', { method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(head.headers['content-type'], 'text/html; charset=utf-8');
  assert.is(head.headers['content-length'], String(Buffer.byteLength(get.text)));
  assert.is(head.headers['content-security-policy'], DOCS_CSP);
  assert.is(head.text, '');
});

test('POST / is 405 with Allow GET, HEAD', async ({ server }) => {
  const reply = await request(server.base, '/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assertProblem(reply, 405, 'method-not-allowed');
  assert.is(reply.headers['allow'], 'GET, HEAD');
});

test('loading the page spends nothing of the rate limit', async ({ server }) => {
  for (let i = 0; i < 20; i++) assert.is((await request(server.base, i % 2 === 0 ? '/' : '/page/main.js')).status, 200);
  const limits = await request(server.base, '/api/limits');
  assert.is(limits.status, 200, limits.text);
  assert.is(limits.json().remaining, 2, limits.text);
});

test.run();
