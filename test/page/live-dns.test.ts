import type { Browser, Page } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startKnot, type KnotServer } from '../support/knot';
import { startServer, type RunningServer } from '../support/server';
import { launch, openWatched, textOf, typeInto } from './browser';

// The live page's dns section in real Chromium, against two loopback Knot servers whose zones agree on
// A and differ on TXT for one name, and agree on everything for another; a third name exists at beta only.
const test = suite<{ a: KnotServer; b: KnotServer; server: RunningServer; browser: Browser }>('GET /, dns in a browser');

test.before(async (ctx) => {
  const same = { domain: 'same.test', records: ['@ A 192.0.2.20', '@ CAA 0 issue "ca.example"'] };
  ctx.a = await startKnot([{ domain: 'live.test', records: ['@ A 192.0.2.10', '@ TXT "from alpha"'] }, same], '127.0.0.61');
  ctx.b = await startKnot([{ domain: 'live.test', records: ['@ A 192.0.2.10', '@ TXT "from beta"', 'half TXT "only beta"'] }, same], '127.0.0.62');
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: `alpha=127.0.0.61:${ctx.a.port},beta=127.0.0.62:${ctx.b.port}`, NETTOOLS_RATE_LIMIT: '1000/1s' });
  ctx.browser = await launch();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.server?.stop();
  await ctx.a?.stop();
  await ctx.b?.stop();
});

// Each cell's text by resolver and type, and the agreement row by type.
async function cells(page: Page): Promise<Record<string, string>> {
  return page.$$eval('#dns-table td', (tds: any[]) =>
    Object.fromEntries(tds.map((td) => [td.dataset.agree !== undefined ? `agree ${td.dataset.agree}` : `${td.dataset.resolver} ${td.dataset.type}`, td.textContent])),
  );
}

async function lookUp(page: Page, domain: string): Promise<void> {
  await typeInto(page, '#dns-domain', domain);
  await page.click('#dns-run');
}

const done = (page: Page) => page.waitForFunction(() => ((globalThis as any).document.getElementById('dns-status')?.textContent ?? '').startsWith('Done'));

test("each resolver's answers land in its row as they come, and the last row says per type whether they agree", async ({ server, browser, b }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  b.pause();
  try {
    await lookUp(page, 'live.test');
    // Not vacuously: before the first event the table has no row at all.
    await page.waitForFunction(() => {
      const tds = [...(globalThis as any).document.querySelectorAll('td[data-resolver="alpha"]')];
      return tds.length > 0 && tds.every((td: any) => td.textContent !== '…');
    });
    const early = await cells(page);
    assert.is(early['alpha A'], '192.0.2.10');
    assert.is(early['alpha TXT'], '"from alpha"');
    assert.is(early['beta A'], '…');
    assert.is(early['agree A'], 'waiting…');
  } finally {
    b.resume();
  }
  await done(page);
  const all = await cells(page);
  assert.is(all['beta A'], '192.0.2.10');
  assert.is(all['beta TXT'], '"from beta"');
  assert.is(all['alpha MX'], 'no records');
  assert.is(all['agree A'], 'agree');
  assert.is(all['agree TXT'], 'differ');
  assert.is(await page.$eval('td[data-agree="TXT"]', (td: any) => td.dataset.verdict), 'differ');
  assert.is(await textOf(page, '#dns-verdict'), 'The resolvers disagree.');
  assert.match(await textOf(page, '#dns-table'), '127.0.0.62');
  assert.equal(await trouble(), []);
  await page.close();
});

test('NS, SOA and CAA, ticked, show their fields in the order the API gives them, and agree', async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  for (const type of ['A', 'AAAA', 'MX', 'TXT', 'NS', 'SOA', 'CAA']) await page.click(`input[name="type"][value="${type}"]`);
  await lookUp(page, 'same.test');
  await done(page);
  const all = await cells(page);
  assert.is(all['alpha NS'], 'ns.same.test');
  assert.is(all['alpha SOA'], 'ns.same.test hostmaster.same.test 1 3600 900 604800 60');
  assert.is(all['beta CAA'], '0 issue ca.example');
  assert.equal([all['agree NS'], all['agree SOA'], all['agree CAA']], ['agree', 'agree', 'agree']);
  assert.equal(await trouble(), []);
  await page.close();
});

test('resolvers with the same records agree on every type, and only the types ticked are asked', async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await page.click('input[name="type"][value="MX"]');
  await page.click('input[name="type"][value="TXT"]');
  await lookUp(page, 'same.test');
  await done(page);
  const all = await cells(page);
  assert.equal(Object.keys(all).sort(), ['agree A', 'agree AAAA', 'alpha A', 'alpha AAAA', 'beta A', 'beta AAAA']);
  assert.is(all['alpha A'], '192.0.2.20');
  assert.is(all['agree A'], 'agree');
  assert.is(await textOf(page, '#dns-verdict'), 'The resolvers agree on every type.');
  assert.equal(await trouble(), []);
  await page.close();
});

test('a name no resolver knows is shown as NXDOMAIN in every cell, which agrees', async ({ server, browser }) => {
  const { page } = await openWatched(browser, `${server.base}/`);
  await lookUp(page, 'nothing.live.test');
  await done(page);
  const all = await cells(page);
  assert.is(all['alpha A'], 'NXDOMAIN');
  assert.is(all['beta TXT'], 'NXDOMAIN');
  assert.is(all['agree A'], 'agree');
  await page.close();
});

test('NXDOMAIN at one resolver against no records at another differs, as the server judges it', async ({ server, browser }) => {
  // half.live.test exists at beta only (a TXT record): alpha says it does not exist, beta has no A.
  const { page } = await openWatched(browser, `${server.base}/`);
  await lookUp(page, 'half.live.test');
  await done(page);
  const all = await cells(page);
  assert.is(all['alpha A'], 'NXDOMAIN');
  assert.is(all['beta A'], 'no records');
  assert.is(all['agree A'], 'differ');
  assert.is(await textOf(page, '#dns-verdict'), 'The resolvers disagree.');
  await page.close();
});

test.run();
