import type { Browser, Page } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { KnotServer } from '../support/knot';
import { startAsnKnot, startAsnServer } from '../support/loopback-asn';
import type { RunningServer } from '../support/server';
import { launch, openWatched, typeInto } from './browser';

// The page's MTR section, from the real mtr tool on loopback (one hop: the target), with a resolver that
// holds a made-up ASN zone (test/support/loopback-asn.ts): the table redrawn after each cycle, the AS
// column when asked for, the verdict, and Stop.
const test = suite<{ knot: KnotServer; server: RunningServer; browser: Browser }>('GET /, mtr in a browser');

test.before(async (ctx) => {
  ctx.knot = await startAsnKnot('127.0.0.85');
  ctx.server = await startAsnServer(ctx.knot, true);
  ctx.browser = await launch();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.server?.stop();
  await ctx.knot?.stop();
});

const rows = (page: Page) => page.$$eval('#mtr-table tr', (trs) => trs.map((tr: any) => [...tr.children].map((c: any) => c.textContent as string)));
const statusIs = (page: Page, text: RegExp) => page.waitForFunction((source: string) => new RegExp(source).test((globalThis as any).document.getElementById('mtr-status').textContent), { timeout: 20_000 }, text.source);

async function runMtr(page: Page, host: string, cycles: number, asn = false): Promise<void> {
  await typeInto(page, '#mtr-host', host);
  await page.$eval('#mtr-cycles', (e: any, n: number) => (e.value = String(n)), cycles);
  if (asn) await page.click('#mtr-asn');
  await page.click('#mtr-run');
}

test('with mtr offered, the section shows a row per hop redrawn each cycle, then the verdict', async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  assert.not.ok(await page.$eval('#mtr', (e: any) => e.hidden));
  await runMtr(page, '127.0.0.2', 3);
  await statusIs(page, /^Cycle 1 of 3/);
  await statusIs(page, /^Done: 3 cycles/);
  const [head, hop] = await rows(page);
  assert.equal(head, ['Hop', 'Host', 'Loss%', 'Snt', 'Last', 'Avg', 'Best', 'Wrst', 'StDev']);
  assert.equal(hop!.slice(0, 4), ['1', '127.0.0.2', '0.0%', '3']);
  for (const figure of hop!.slice(4)) assert.match(figure, /^\d+\.\d$/);
  assert.equal(await page.$eval('#mtr-verdict', (e: any) => [e.textContent, e.dataset.verdict]), ['Reached 127.0.0.2 in 1 hop.', 'reached']);
  assert.equal(await trouble(), []);
  await page.close();
});

test("AS numbers adds the AS column: each address's origin AS from the zone", async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await runMtr(page, '127.0.0.2', 1, true);
  await statusIs(page, /^Done/);
  const [head, hop] = await rows(page);
  assert.equal(head!.slice(0, 3), ['Hop', 'Host', 'AS']);
  assert.equal(hop!.slice(0, 3), ['1', '127.0.0.2', 'AS64500']);
  assert.equal(await trouble(), []);
  await page.close();
});

test('Stop ends a long mtr: the status says so, the table keeps the cycles so far', async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await runMtr(page, '127.0.0.2', 100);
  await statusIs(page, /^Cycle 2 of 100/);
  await page.click('#mtr-stop');
  await statusIs(page, /^Stopped\.$/);
  const [, hop] = await rows(page);
  assert.ok(Number(hop![3]) >= 2 && Number(hop![3]) < 100, hop!.join(' '));
  assert.is(await page.$eval('#mtr-run', (e: any) => e.disabled), false);
  assert.equal(await trouble(), []);
  await page.close();
});

test('at 360 px the ten columns scroll inside the table, never the page sideways', async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await page.setViewport({ width: 360, height: 800 });
  await runMtr(page, '127.0.0.2', 1, true);
  await statusIs(page, /^Done/);
  const widths = await page.evaluate(() => {
    const g = globalThis as any;
    const table = g.document.getElementById('mtr-table');
    return { page: g.document.documentElement.scrollWidth, viewport: g.innerWidth, table: table.scrollWidth, box: table.clientWidth };
  });
  assert.is(widths.page, widths.viewport);
  assert.ok(widths.table > widths.box, JSON.stringify(widths));
  assert.equal(await trouble(), []);
  await page.close();
});

test.run();
