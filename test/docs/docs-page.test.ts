import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { ROOT } from '../architecture/source-files';
import { request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { startServer, type RunningServer } from '../support/server';

// The API reference page in a real browser: Debian's chromium, driven by puppeteer-core (never a
// downloaded browser), against a server whose one resolver is a Knot on loopback.
// Screenshots go to a temp dir, removed afterwards unless a browser test failed (then its path is printed).
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function assertPng(path: string): void {
  const bytes = readFileSync(path);
  assert.ok(bytes.length > PNG_SIGNATURE.length, `${path}: ${bytes.length} bytes`);
  assert.ok(bytes.subarray(0, 8).equals(PNG_SIGNATURE), `${path} is not a PNG`);
}

const test = suite<{ knot: KnotServer; server: RunningServer; browser: Browser; shots: string; keepShots: boolean }>('GET /docs');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'docs.test', records: ['@ A 192.0.2.44', '@ TXT "from the page"'] }], '127.0.0.31');
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: `knot=127.0.0.31:${ctx.knot.port}` });
  ctx.browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'], headless: true });
  ctx.shots = mkdtempSync(join(tmpdir(), 'nt-docs-'));
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.server?.stop();
  await ctx.knot?.stop();
  if (ctx.keepShots) console.error(`docs page screenshots kept in ${ctx.shots}`);
  else if (ctx.shots) rmSync(ctx.shots, { recursive: true, force: true });
});

test('the page and its files carry a strict CSP and an ETag, and a matching If-None-Match is 304', async ({ server }) => {
  const page = await request(server.base, '/docs');
  assert.is(page.status, 200);
  assert.is(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(String(page.headers['content-security-policy']), "script-src 'self'");
  assert.not.match(String(page.headers['content-security-policy']), 'unsafe-eval');
  for (const path of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/start.js']) {
    const first = await request(server.base, path);
    assert.is(first.status, 200, path);
    const etag = String(first.headers['etag']);
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
    const again = await request(server.base, path, { headers: { 'if-none-match': etag } });
    assert.is(again.status, 304, path);
    assert.is(again.text, '');
  }
  assert.not.match(page.text, /https?:\/\//);
});

test('a browser shows both tools, loads nothing from elsewhere, and sends a dns request from the page', async (ctx) => {
  const { server, browser, shots } = ctx;
  const page = await browser.newPage();
  const elsewhere: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol !== 'data:' && url.hostname !== '127.0.0.1') elsewhere.push(r.url());
  });
  // Every CSP refusal on the page, whatever the browser logs about it: the page must need none.
  await page.evaluateOnNewDocument(() => {
    const seen: string[] = [];
    (globalThis as any).cspViolations = seen;
    (globalThis as any).document.addEventListener('securitypolicyviolation', (e: any) => seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  });
  ctx.keepShots = true;
  await page.setViewport({ width: 1280, height: 1000 });
  await page.goto(`${server.base}/docs`, { waitUntil: 'networkidle0' });
  await page.waitForSelector('.opblock-summary-path');
  const paths = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.textContent?.replace(/\u200b/g, '').trim()));
  assert.ok(paths.includes('/api/tools/ping') && paths.includes('/api/tools/dns'), JSON.stringify(paths));
  await page.screenshot({ path: join(shots, 'docs.png') });
  assertPng(join(shots, 'docs.png'));
  // NETTOOLS_DOCS_SCREENSHOT=1 writes the README's picture of the page.
  if (process.env['NETTOOLS_DOCS_SCREENSHOT']) await page.screenshot({ path: join(ROOT, 'docs', 'api-reference.png') });

  await page.click('#operations-tools-dns .opblock-summary');
  await page.waitForSelector('#operations-tools-dns textarea.body-param__text');
  // React keeps the textarea's value: set it through the element's own setter and say so with an event.
  await page.$eval('#operations-tools-dns textarea.body-param__text', (area: any) => {
    const proto = Object.getPrototypeOf(area);
    Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(area, '{"domain":"docs.test","types":["A","TXT"]}');
    area.dispatchEvent(new (globalThis as any).Event('input', { bubbles: true }));
  });
  await page.click('#operations-tools-dns .execute');
  const row = '#operations-tools-dns .live-responses-table tr.response .response-col_status';
  await page.waitForSelector(row);
  const status = await page.$eval(row, (e) => e.textContent?.trim());
  const shown = await page.$eval('#operations-tools-dns .live-responses-table', (e) => e.textContent ?? '');
  assert.is(status, '200');
  assert.match(shown, '192.0.2.44');
  assert.match(shown, 'from the page');
  await page.screenshot({ path: join(shots, 'docs-dns.png'), fullPage: false });
  assertPng(join(shots, 'docs-dns.png'));
  assert.equal(elsewhere, []);
  assert.equal(await page.evaluate(() => (globalThis as any).cspViolations), []);
  await page.close();
  ctx.keepShots = false;
});

test.run();
