import type { Browser, Page } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import net from 'node:net';
import { startHttpSites, type HttpSites } from '../support/http-sites';
import { startKnot, type KnotServer } from '../support/knot';
import { startServer, type RunningServer } from '../support/server';
import { startTlsSites, type TlsSites } from '../support/tls-sites';
import { launch, openWatched, typeInto } from './browser';

// The live page on a phone (a 360 px wide viewport), used with names as long as DNS allows labels to be:
// a ping, a lookup and a trace of a 200-character name whose MX is another such name and whose TXT is a
// 200-character string with no space (as DKIM keys are), its SRV and TLSA ticked too; a tcp check of a
// loopback listener, a tls check of the test CA's site (tls-sites.ts) showing its chain, and an http check
// of the long name on a loopback nginx (http-sites.ts) following a redirect. One Knot on loopback answers
// for the names.
const test = suite<{ knot: KnotServer; server: RunningServer; browser: Browser; page: Page; sites: TlsSites; web: HttpSites; listener: net.Server }>('GET /, at phone width with long names');

const LONG = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.long.test`;
const LONG_MX = `mail-${'m'.repeat(55)}.${'n'.repeat(60)}.long.test`;
const LONG_TXT = 'p='.padEnd(200, 'Q');

test.before(async (ctx) => {
  const records = [`${LONG}. A 127.0.0.1`, `${LONG}. MX 10 ${LONG_MX}.`, `${LONG}. TXT "${LONG_TXT}"`, `${LONG}. SRV 10 5 5060 ${LONG_MX}.`, `${LONG}. TLSA 3 1 1 ${'ef'.repeat(32)}`];
  ctx.knot = await startKnot([{ domain: 'long.test', records }], '127.0.0.65');
  ctx.sites = await startTlsSites();
  ctx.web = await startHttpSites('other.http.test');
  ctx.listener = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => ctx.listener.listen(0, '127.0.0.1', resolve));
  const settings = { NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_TLS_CA_FILE: ctx.sites.caFile };
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: `local=127.0.0.65:${ctx.knot.port}`, ...settings });
  ctx.browser = await launch();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.server?.stop();
  await ctx.knot?.stop();
  await ctx.sites?.stop();
  await ctx.web?.stop();
  await new Promise((r) => ctx.listener?.close(r));
});

// Whether `selector` holds `text` whole, inside the viewport and not clipped by its own box.
const shownWhole = (page: Page, selector: string, text: string) =>
  page.$eval(selector, (e: any, want: string) => {
    const box = e.getBoundingClientRect();
    const inside = box.left >= 0 && box.right <= (globalThis as any).innerWidth;
    return { holds: (e.textContent as string).includes(want), inside, clipped: e.scrollWidth > e.clientWidth };
  }, text);

test('at 360 px a ping, a lookup, a trace, a tcp, a tls and an http check leave nothing sideways of the page', async (ctx) => {
  const { page, trouble } = await openWatched(ctx.browser, `${ctx.server.base}/`);
  ctx.page = page;
  await page.setViewport({ width: 360, height: 740 });
  await typeInto(page, '#ping-host', LONG);
  await typeInto(page, '#ping-count', '2');
  await typeInto(page, '#ping-interval', '100');
  await page.click('#ping-run');
  await typeInto(page, '#dns-domain', LONG);
  for (const type of ['SRV', 'TLSA']) await page.click(`input[name="type"][value="${type}"]`);
  await page.click('#dns-run');
  await typeInto(page, '#trace-host', LONG);
  await page.click('#trace-run');
  await typeInto(page, '#tcp-host', '127.0.0.1');
  await typeInto(page, '#tcp-port', String((ctx.listener.address() as net.AddressInfo).port));
  await typeInto(page, '#tcp-count', '2');
  await page.click('#tcp-run');
  await typeInto(page, '#tls-host', '127.0.0.1');
  await typeInto(page, '#tls-port', String(ctx.sites.ports.good));
  await typeInto(page, '#tls-server-name', 'good.tls.test');
  await page.click('#tls-run');
  await typeInto(page, '#http-url', `http://${LONG}:${ctx.web.main}/moved`);
  await page.click('#http-run');
  await page.waitForFunction(() =>
    ['ping-status', 'dns-status', 'trace-status', 'tcp-status', 'tls-status', 'http-status'].every((id) => ((globalThis as any).document.getElementById(id).textContent ?? '').startsWith('Done')),
  );
  assert.is(await page.$$eval('#tls-chain tbody tr', (trs) => trs.length), 2); // not vacuously: the chain is there
  assert.is(await page.$$eval('#http-hops tr', (trs) => trs.length), 1); // and the redirect followed
  const width = await page.evaluate(() => ({ scroll: (globalThis as any).document.documentElement.scrollWidth, inner: (globalThis as any).innerWidth }));
  assert.ok(width.scroll <= width.inner, `the page is ${width.scroll} px wide in a ${width.inner} px viewport`);
  assert.equal(await trouble(), []);
});

test('a long name is shown whole, wrapped, in what each section ends with and in the answers', async ({ page }) => {
  const whole = { holds: true, inside: true, clipped: false };
  assert.equal(await shownWhole(page, '#ping-status', LONG), whole, 'ping');
  assert.equal(await shownWhole(page, '#dns-status', LONG), whole, 'dns');
  assert.equal(await shownWhole(page, '#trace-verdict', LONG), whole, 'trace');
  assert.equal(await shownWhole(page, 'td[data-resolver="local"][data-type="MX"]', LONG_MX), whole, 'MX answer');
  assert.equal(await shownWhole(page, 'td[data-resolver="local"][data-type="TXT"]', LONG_TXT), whole, 'TXT answer');
  assert.equal(await shownWhole(page, 'td[data-resolver="local"][data-type="SRV"]', LONG_MX), whole, 'SRV answer');
  assert.equal(await shownWhole(page, 'td[data-resolver="local"][data-type="TLSA"]', 'ef'.repeat(32)), whole, 'TLSA answer');
  assert.equal(await shownWhole(page, '#tls-chain tbody tr td[title="Subject"]', 'good.tls.test'), whole, 'certificate subject');
  assert.equal(await shownWhole(page, '#http-status', LONG), whole, 'http');
  assert.equal(await shownWhole(page, '#http-hops td[title="URL"]', LONG), whole, 'redirect URL');
  assert.equal(await shownWhole(page, '#http-facts dd[data-fact="Final URL"]', LONG), whole, 'final URL');
  await page.close();
});

test.run();
