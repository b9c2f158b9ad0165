import type { Browser, Page } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startHttpSites, type HttpSites } from '../support/http-sites';
import { startKnot, type KnotServer } from '../support/knot';
import { freeTcpPort } from '../support/ports';
import { startServer, type RunningServer } from '../support/server';
import { startTlsSites, type TlsSites } from '../support/tls-sites';
import { launch, openWatched, textOf, typeInto } from './browser';

// The live page's http check in real Chromium against a real server: a plain nginx on 127.0.0.1
// (http-sites.ts: an answer, a redirect back to it, a header holding markup) and nginx's TLS sites
// (tls-sites.ts) under the name good.tls.test, which a Knot on loopback gives 127.0.0.1; the test CA is
// trusted. Private targets are on for loopback.
const test = suite<{ knot: KnotServer; sites: HttpSites; tls: TlsSites; server: RunningServer; browser: Browser }>('GET /, http in a browser');

const MARKUP = '<img src=x onerror="document.body.dataset.pwned=1">';

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'tls.test', records: ['good A 127.0.0.1'] }], '127.0.0.177');
  ctx.sites = await startHttpSites('other.http.test');
  ctx.tls = await startTlsSites();
  const settings = { NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_TLS_CA_FILE: ctx.tls.caFile };
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: `knot=127.0.0.177:${ctx.knot.port}`, ...settings });
  ctx.browser = await launch();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.server?.stop();
  await ctx.tls?.stop();
  await ctx.sites?.stop();
  await ctx.knot?.stop();
});

async function ask(page: Page, url: string, redirects = 0): Promise<string> {
  await page.waitForFunction(() => !(globalThis as any).document.getElementById('http').hidden);
  await typeInto(page, '#http-url', url);
  await typeInto(page, '#http-redirects', String(redirects));
  await page.click('#http-run');
  // Ended: Run is enabled again and the status line says how, not what is under way.
  await page.waitForFunction(() => {
    const doc = (globalThis as any).document;
    const said: string = doc.getElementById('http-status').textContent ?? '';
    return !doc.getElementById('http-run').disabled && said !== '' && !said.endsWith('…');
  });
  return textOf(page, '#http-status');
}

const facts = (page: Page) => page.$$eval('#http-facts dd', (dds: any[]) => Object.fromEntries(dds.map((dd) => [dd.dataset.fact, dd.textContent])));
const phases = (page: Page) =>
  page.$$eval('#http-phases .phase', (rows: any[]) => rows.map((r) => ({ phase: r.dataset.phase, value: r.querySelector('.value').textContent, bar: parseFloat(r.querySelector('.bar').style.width) })));
const cellsOf = (page: Page, selector: string) => page.$$eval(selector, (trs: any[]) => trs.map((tr) => [...tr.cells].map((c: any) => c.textContent)));

test('a 200 shows its status, version, body and each phase with its time and a bar of its share', async ({ server, browser, sites }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  const said = await ask(page, `http://127.0.0.1:${sites.main}/`);
  assert.is(said, `Done: http://127.0.0.1:${sites.main}/ answered 200.`);
  const shown = await facts(page);
  assert.equal([shown['Status'], shown['HTTP version'], shown['Body']], ['200', '1.1', '6 bytes']);
  assert.is(shown['SHA-256'], '5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03'); // "hello\n"
  const rows = await phases(page);
  assert.equal(rows.map((r) => r.phase), ['Resolve', 'Connect', 'First byte', 'Transfer', 'Total']);
  for (const r of rows) assert.match(r.value, /^\d+\.\d+ ms$/);
  assert.is(rows.at(-1)!.bar, 100);
  for (const r of rows.slice(0, -1)) assert.ok(r.bar >= 0 && r.bar <= 100, JSON.stringify(r));
  assert.match(await page.$eval('#http-headers tr[data-header="server"] td', (td: any) => td.textContent), /^nginx/);
  assert.is(await page.$$eval('#http-hops tr', (trs) => trs.length), 0);
  assert.equal(await trouble(), []);
  await page.close();
});

test('a redirect followed shows its hop: status, where it sent the check and its phases', async ({ server, browser, sites }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  const said = await ask(page, `http://127.0.0.1:${sites.main}/moved`, 2);
  assert.is(said, `Done: http://127.0.0.1:${sites.main}/ answered 200, after 1 redirect.`);
  const [hop, more] = await cellsOf(page, '#http-hops tr');
  assert.is(more, undefined);
  assert.equal(hop!.slice(0, 5), ['1', '301', `http://127.0.0.1:${sites.main}/moved`, `http://127.0.0.1:${sites.main}/`, '127.0.0.1']);
  assert.match(hop![5]!, /^resolve \d+\.\d+, connect \d+\.\d+, first byte \d+\.\d+, transfer \d+\.\d+$/);
  assert.match(hop![6]!, /^\d+\.\d+$/);
  assert.is((await facts(page))['Status'], '200');
  assert.equal(await trouble(), []);
  await page.close();
});

test('an https URL shows the TLS facts and the chain, leaf first', async ({ server, browser, tls }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  const said = await ask(page, `https://good.tls.test:${tls.ports.good}/`);
  assert.is(said, `Done: https://good.tls.test:${tls.ports.good}/ answered 204.`);
  const shown = await facts(page);
  assert.is(shown['Verified'], 'yes');
  assert.match(shown['TLS protocol']!, /^TLSv1\.[23]$/);
  assert.ok((await phases(page)).some((r) => r.phase === 'TLS'));
  const chain = await cellsOf(page, '#http-chain tbody tr');
  assert.equal(chain.map((c) => c.slice(1, 3)), [['good.tls.test', 'nettools test CA'], ['nettools test CA', 'nettools test CA']]);
  assert.equal(await trouble(), []);
  await page.close();
});

test('a response header holding markup is shown as its text, never made an element', async ({ server, browser, sites }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await ask(page, `http://127.0.0.1:${sites.main}/markup`);
  assert.is(await page.$eval('#http-headers tr[data-header="x-note"] td', (td: any) => td.textContent), MARKUP);
  assert.is(await page.$$eval('#http img', (imgs) => imgs.length), 0);
  assert.is(await page.$eval('body', (b: any) => b.dataset.pwned ?? 'untouched'), 'untouched');
  assert.equal(await trouble(), []);
  await page.close();
});

test('a port that refuses shows where the check stopped, as an error, and no headers', async ({ server, browser }) => {
  const { page } = await openWatched(browser, `${server.base}/`);
  const port = await freeTcpPort('127.0.0.1');
  const said = await ask(page, `http://127.0.0.1:${port}/`);
  assert.is(said, `Done: http://127.0.0.1:${port}/ gave no whole answer.`);
  assert.is((await facts(page))['Status'], 'connect refused (ECONNREFUSED)');
  assert.is(await page.$eval('#http-facts dd[data-fact="Status"]', (dd: any) => dd.dataset.verdict), 'bad');
  assert.ok(await page.$eval('#http-status', (e: any) => e.classList.contains('error')));
  assert.is(await page.$$eval('#http-headers tr', (trs) => trs.length), 0);
  await page.close();
});

test('a target the server refuses shows its problem as an error', async ({ server, browser }) => {
  const { page } = await openWatched(browser, `${server.base}/`);
  const said = await ask(page, 'http://127.0.0.1:25/');
  assert.match(said, /\(target-forbidden\)\./);
  assert.ok(await page.$eval('#http-status', (e: any) => e.classList.contains('error')));
  assert.is(await textOf(page, '#http-facts'), '');
  await page.close();
});

test.run();
