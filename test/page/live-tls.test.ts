import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import type { Browser, Page } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type RunningServer } from '../support/server';
import { startTlsSites, type TlsSites } from '../support/tls-sites';
import { launch, openWatched, textOf, typeInto } from './browser';

// The live page's tls check in real Chromium against a real server trusting the test CA: nginx's sites
// on 127.0.0.1 (tls-sites.ts), and a Node TLS server whose self-signed certificate's subject is markup.
// No resolver is asked (the host is an IP; the name is only the SNI); private targets are on for loopback.
const test = suite<{ server: RunningServer; browser: Browser; sites: TlsSites; dir: string; hostile: Server; hostilePort: number }>('GET /, tls in a browser');

const MARKUP = '<img src=x onerror="document.body.dataset.pwned=1">';

test.before(async (ctx) => {
  ctx.sites = await startTlsSites();
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_TLS_CA_FILE: ctx.sites.caFile });
  ctx.dir = mkdtempSync(join(tmpdir(), 'nt-page-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '3', '-subj', `/CN=${MARKUP}`], { cwd: ctx.dir, stdio: 'ignore' });
  ctx.hostile = createServer({ key: readFileSync(join(ctx.dir, 'key.pem')), cert: readFileSync(join(ctx.dir, 'cert.pem')) });
  await new Promise<void>((resolve) => ctx.hostile.listen(0, '127.0.0.1', resolve));
  ctx.hostilePort = (ctx.hostile.address() as net.AddressInfo).port;
  ctx.browser = await launch();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.server?.stop();
  await ctx.sites?.stop();
  await new Promise((r) => ctx.hostile?.close(r));
  if (ctx.dir !== undefined) rmSync(ctx.dir, { recursive: true, force: true });
});

async function check(page: Page, port: number, serverName: string): Promise<void> {
  await page.waitForFunction(() => !(globalThis as any).document.getElementById('tls').hidden);
  await typeInto(page, '#tls-host', '127.0.0.1');
  await typeInto(page, '#tls-port', String(port));
  if (serverName !== '') await typeInto(page, '#tls-server-name', serverName);
  await page.click('#tls-run');
  await page.waitForFunction(() => ((globalThis as any).document.getElementById('tls-status')?.textContent ?? '').startsWith('Done'));
}

const facts = (page: Page) => page.$$eval('#tls-facts dd', (dds: any[]) => Object.fromEntries(dds.map((dd) => [dd.dataset.fact, dd.textContent])));
const chain = (page: Page) =>
  page.$$eval('#tls-chain tbody tr', (trs: any[]) => trs.map((tr) => ({ validity: tr.dataset.validity, cells: [...tr.cells].map((c: any) => c.textContent) })));

test('a certificate from the test CA shows the handshake, verified, and the chain with the days left marked as few', async ({ server, browser, sites }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await check(page, sites.ports.good, 'good.tls.test');
  const shown = await facts(page);
  assert.is(shown['Status'], 'handshake');
  assert.is(shown['Server name'], 'good.tls.test');
  assert.match(shown['Protocol']!, /^TLSv1\.[23]$/);
  assert.ok((shown['Cipher'] ?? '').length > 0);
  assert.is(shown['Verified'], 'yes');
  const [leaf, anchor] = await chain(page);
  assert.equal(leaf!.cells.slice(0, 3), ['0', 'good.tls.test', 'nettools test CA']);
  assert.match(leaf!.cells[3]!, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  // Valid three days from now: two whole days left, fewer than the page's fortnight.
  assert.is(leaf!.cells[4], '2 days left');
  assert.is(leaf!.validity, 'expiring');
  assert.equal(anchor!.cells.slice(1, 3), ['nettools test CA', 'nettools test CA']);
  assert.is(anchor!.validity, 'ok');
  assert.equal(await trouble(), []);
  await page.close();
});

test('an expired certificate shows as expired, in the chain and in why it does not verify', async ({ server, browser, sites }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await check(page, sites.ports.expired, 'good.tls.test');
  const shown = await facts(page);
  assert.is(shown['Status'], 'handshake');
  assert.is(shown['Verified'], 'no: CERT_HAS_EXPIRED');
  assert.is(await page.$eval('#tls-facts dd[data-fact="Verified"]', (dd: any) => dd.dataset.verdict), 'bad');
  const [leaf] = await chain(page);
  assert.is(leaf!.cells[4], 'expired');
  assert.is(leaf!.validity, 'expired');
  assert.equal(await trouble(), []);
  await page.close();
});

test('a certificate subject holding markup is shown as its text, never made an element', async ({ server, browser, hostilePort }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await check(page, hostilePort, '');
  const [leaf] = await chain(page);
  assert.is(leaf!.cells[1], MARKUP);
  assert.is(await page.$$eval('#tls img, #tls-chain img', (imgs) => imgs.length), 0);
  assert.is(await page.$eval('body', (b: any) => b.dataset.pwned ?? 'untouched'), 'untouched');
  assert.equal(await trouble(), []);
  await page.close();
});

test('a closed port shows how far the check got, as an error, and no chain', async ({ server, browser }) => {
  const { page } = await openWatched(browser, `${server.base}/`);
  const port = await (await import('../support/ports')).freeTcpPort('127.0.0.1');
  await check(page, port, '');
  assert.is((await facts(page))['Status'], 'refused (ECONNREFUSED)');
  assert.is(await textOf(page, '#tls-chain-box'), '');
  assert.ok(await page.$eval('#tls-status', (e: any) => e.classList.contains('error')));
  await page.close();
});

test.run();
