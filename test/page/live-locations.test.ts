import type { Browser, Page } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startLocatedRig, stopLocatedRig, type LocatedRig } from '../support/located-rig';
import { startServer, type RunningServer } from '../support/server';
import { launch, openWatched, typeInto } from './browser';

// GET / of a hub with real agents: the page lists the locations, and a run from them shows one row per
// location as its results arrive, then the verdict. `ams` reaches loopback; `strict` refuses it.
const test = suite<{ rig: LocatedRig; alone: RunningServer; browser: Browser }>('GET /, measuring from locations');

test.before(async (ctx) => {
  ctx.rig = await startLocatedRig('127.0.0.155');
  ctx.alone = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9' });
  ctx.browser = await launch();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.alone?.stop();
  await stopLocatedRig(ctx.rig ?? {});
});

const rows = (page: Page, table: string) =>
  page.$$eval(`#${table} tbody tr`, (trs: any[]) => trs.map((tr) => ({ location: tr.dataset.location, state: tr.dataset.state, cells: [...tr.cells].slice(1).map((c: any) => c.textContent) })));

async function finished(page: Page, verdict: string): Promise<string> {
  const shown = (id: string) => (globalThis as any).document.getElementById(id).textContent !== '';
  await page.waitForFunction(shown, { timeout: 20_000 }, verdict);
  return page.$eval(`#${verdict}`, (e: any) => e.textContent);
}

test('the picker lists this server and each agent, hidden on a server alone', async ({ rig, alone, browser }) => {
  const { page, trouble } = await openWatched(browser, `${rig.hub.base}/`);
  assert.is(await page.$eval('#locations', (e: any) => e.hidden), false);
  assert.equal(await page.$$eval('#locations-select option', (os: any[]) => os.map((o) => [o.value, o.textContent])), [
    ['hub', 'hub'],
    ['ams', 'ams (Amsterdam, NL)'],
    ['strict', 'strict'],
  ]);
  assert.equal(await trouble(), []);
  await page.close();
  const single = await openWatched(browser, `${alone.base}/`);
  assert.is(await single.page.$eval('#locations', (e: any) => e.hidden), true);
  await single.page.close();
});

test('a ping from two locations fills a row per location and says from how many the host was reached', async ({ rig, browser }) => {
  const { page, trouble } = await openWatched(browser, `${rig.hub.base}/`);
  await page.select('#locations-select', 'ams', 'strict');
  await typeInto(page, '#ping-host', '127.0.0.1');
  await typeInto(page, '#ping-count', '2');
  await typeInto(page, '#ping-interval', '100');
  await page.click('#ping-run');
  assert.is(await finished(page, 'ping-located-verdict'), 'Reached from 1 of 2 locations.');
  const [ams, strict] = await rows(page, 'ping-located');
  assert.equal({ ...ams, cells: ams!.cells.slice(0, 3) }, { location: 'ams', state: 'done', cells: ['reached', '2', '2'] });
  assert.is(strict!.state, 'failed');
  assert.match(strict!.cells[0]!, '(target-forbidden)');
  assert.is(await page.$eval('#ping-chart', (e: any) => (globalThis as any).getComputedStyle(e).display), 'none');
  assert.equal(await trouble(), []);
  await page.close();
});

test('a lookup from every location shows each one\'s records and that they agree', async ({ rig, browser }) => {
  const { page, trouble } = await openWatched(browser, `${rig.hub.base}/`);
  await page.select('#locations-select', 'hub', 'ams', 'strict');
  await typeInto(page, '#dns-domain', 'example.test');
  await page.click('#dns-run');
  assert.is(await finished(page, 'dns-located-verdict'), 'Every location saw the same records (3 of 3 locations answered).');
  const shown = await rows(page, 'dns-located');
  assert.equal(shown.map((r) => r.location), ['hub', 'ams', 'strict']);
  for (const r of shown) assert.equal([r.state, r.cells[0]], ['done', 'answered']);
  assert.match(shown[0]!.cells[1]!, 'A 192.0.2.10');
  assert.equal(await trouble(), []);
  await page.close();
});

test('a trace from a location shows its hops and its verdict', async ({ rig, browser }) => {
  const { page, trouble } = await openWatched(browser, `${rig.hub.base}/`);
  await page.select('#locations-select', 'ams');
  await typeInto(page, '#trace-host', '127.0.0.1');
  await page.click('#trace-run');
  assert.is(await finished(page, 'trace-located-verdict'), 'Reached from 1 of 1 location.');
  assert.equal(await rows(page, 'trace-located'), [{ location: 'ams', state: 'done', cells: ['Reached 127.0.0.1 in 1 hop.', '1', '1  127.0.0.1'] }]);
  assert.equal(await trouble(), []);
  await page.close();
});

test('an mtr from two locations shows each one\'s cycles, its last hop and the verdict', async ({ rig, browser }) => {
  const { page, trouble } = await openWatched(browser, `${rig.hub.base}/`);
  await page.select('#locations-select', 'hub', 'ams');
  await typeInto(page, '#mtr-host', '127.0.0.1');
  await typeInto(page, '#mtr-cycles', '2');
  await page.click('#mtr-run');
  assert.is(await finished(page, 'mtr-located-verdict'), 'Reached from 2 of 2 locations.');
  for (const r of await rows(page, 'mtr-located')) {
    assert.equal([r.state, ...r.cells.slice(0, 5)], ['done', 'reached', '2', '1', '127.0.0.1', '0.0%'], r.location);
  }
  assert.is(await page.$eval('#mtr-table', (e: any) => (globalThis as any).getComputedStyle(e).display), 'none');
  assert.equal(await trouble(), []);
  await page.close();
});

test.run();
