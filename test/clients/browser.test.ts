import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, resolve } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type RunningServer } from '../support/server';

// The client's ES module build in a real browser (Debian's chromium), on a page of another origin than
// the API's: fetch only, CORS, the exposed rate-limit fields.
const DIST = resolve(__dirname, '../../../clients/typescript/dist');
const test = suite<{ api: RunningServer; site: http.Server; origin: string; browser: Browser }>('typed client in a browser');

const PAGE = `<!doctype html><script type="module">
import { NettoolsClient } from '/client/index.js';
const api = new URL(location.href).searchParams.get('api');
const client = new NettoolsClient({ baseUrl: api });
window.answer = await client.ping({ host: '127.0.0.1', count: 1 });
const events = [];
for await (const e of client.pingStream({ host: '127.0.0.1', count: 2, intervalMs: 100 })) events.push(e);
window.events = events;
</script>`;

// Serves the page and the client's built files, nothing else.
function site(req: http.IncomingMessage, res: http.ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  const file = normalize(join(DIST, path.replace(/^\/client\//, '')));
  if (!path.startsWith('/client/') || !file.startsWith(DIST)) return void res.writeHead(404).end();
  try {
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(file));
  } catch {
    res.writeHead(404).end();
  }
}

test.before(async (ctx) => {
  ctx.api = await startServer({ NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
  ctx.site = http.createServer(site);
  await new Promise<void>((done) => ctx.site.listen(0, '127.0.0.1', done));
  ctx.origin = `http://127.0.0.1:${(ctx.site.address() as AddressInfo).port}`;
  ctx.browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'], headless: true });
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await new Promise((done) => (ctx.site ? ctx.site.close(done) : done(undefined)));
  await ctx.api?.stop();
});

test('ping() from a page of another origin answers the measurement and the rate-limit fields', async ({ api, origin, browser }) => {
  const page = await browser.newPage();
  await page.goto(`${origin}/?api=${encodeURIComponent(api.base)}`);
  await page.waitForFunction('window.answer !== undefined', { timeout: 10_000 });
  const answer: any = await page.evaluate('window.answer');
  assert.ok(answer.ok, JSON.stringify(answer));
  assert.is(answer.value.reachable, true);
  assert.is(answer.rateLimit.policy, 'default');
  assert.type(answer.rateLimit.remaining, 'number');
  await page.close();
});

test('pingStream() from a page of another origin yields start, each reply and the summary', async ({ api, origin, browser }) => {
  const page = await browser.newPage();
  await page.goto(`${origin}/?api=${encodeURIComponent(api.base)}`);
  await page.waitForFunction('window.events !== undefined', { timeout: 10_000 });
  const events: any[] = (await page.evaluate('window.events')) as any[];
  assert.equal(events.map((e) => e.event), ['start', 'reply', 'reply', 'summary']);
  assert.equal(events[3].data.replies, [events[1].data, events[2].data]);
  await page.close();
});

test.run();
