import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import type { Browser, Page } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startHttpSites, type HttpSites } from '../support/http-sites';
import { startLocatedRig, stopLocatedRig, type LocatedRig } from '../support/located-rig';
import { launch, openWatched, typeInto } from './browser';

// tcp, tls and http from locations on the live page: a hub and its real agents (located-rig.ts; `ams` and
// the hub may reach loopback, `strict` refuses it), a listener on 127.0.0.1 that accepts, a Node TLS
// server with a self-signed certificate, and a plain nginx (http-sites.ts).
const test = suite<{ rig: LocatedRig; browser: Browser; listener: net.Server; dir: string; site: Server; web: HttpSites }>('GET /, tcp, tls and http from locations');

test.before(async (ctx) => {
  ctx.rig = await startLocatedRig('127.0.0.157');
  ctx.listener = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => ctx.listener.listen(0, '127.0.0.1', resolve));
  ctx.dir = mkdtempSync(join(tmpdir(), 'nt-page-located-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '3', '-subj', '/CN=self.page.test'], { cwd: ctx.dir, stdio: 'ignore' });
  ctx.site = createServer({ key: readFileSync(join(ctx.dir, 'key.pem')), cert: readFileSync(join(ctx.dir, 'cert.pem')) });
  await new Promise<void>((resolve) => ctx.site.listen(0, '127.0.0.1', resolve));
  ctx.web = await startHttpSites('other.http.test');
  ctx.browser = await launch();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await stopLocatedRig(ctx.rig ?? {});
  await new Promise((r) => ctx.listener?.close(r));
  await new Promise((r) => ctx.site?.close(r));
  await ctx.web?.stop();
  if (ctx.dir !== undefined) rmSync(ctx.dir, { recursive: true, force: true });
});

const portOf = (server: net.Server) => String((server.address() as net.AddressInfo).port);
const rows = (page: Page, table: string) =>
  page.$$eval(`#${table} tbody tr`, (trs: any[]) => trs.map((tr) => ({ location: tr.dataset.location, state: tr.dataset.state, cells: [...tr.cells].slice(1).map((c: any) => c.textContent) })));

async function finished(page: Page, verdict: string): Promise<string> {
  await page.waitForFunction((id: string) => (globalThis as any).document.getElementById(id).textContent !== '', { timeout: 20_000 }, verdict);
  return page.$eval(`#${verdict}`, (e: any) => e.textContent);
}

test('a tcp check from two locations fills a row per location and says from how many the port accepted', async ({ rig, browser, listener }) => {
  const { page, trouble } = await openWatched(browser, `${rig.hub.base}/`);
  await page.select('#locations-select', 'ams', 'strict');
  await typeInto(page, '#tcp-host', '127.0.0.1');
  await typeInto(page, '#tcp-port', portOf(listener));
  await typeInto(page, '#tcp-count', '2');
  await page.click('#tcp-run');
  assert.is(await finished(page, 'tcp-located-verdict'), 'Connected from 1 of 2 locations.');
  const [ams, strict] = await rows(page, 'tcp-located');
  assert.equal({ ...ams, cells: [...ams!.cells.slice(0, 3), ams!.cells[4]] }, { location: 'ams', state: 'done', cells: ['connected', '2', '2', '0 %'] });
  assert.is(strict!.state, 'failed');
  assert.match(strict!.cells[0]!, '(target-forbidden)');
  assert.is(await page.$eval('#tcp-table', (e: any) => (globalThis as any).getComputedStyle(e).display), 'none');
  assert.equal(await trouble(), []);
  await page.close();
});

test('a tls check from two locations shows each handshake, why it does not verify and the leaf', async ({ rig, browser, site }) => {
  const { page, trouble } = await openWatched(browser, `${rig.hub.base}/`);
  await page.select('#locations-select', 'hub', 'ams');
  await typeInto(page, '#tls-host', '127.0.0.1');
  await typeInto(page, '#tls-port', portOf(site));
  await page.click('#tls-run');
  assert.is(await finished(page, 'tls-located-verdict'), 'Handshake completed from 2 of 2 locations.');
  for (const r of await rows(page, 'tls-located')) {
    assert.equal([r.state, r.cells[0], r.cells[2], r.cells[3]], ['failed', 'handshake', 'no: DEPTH_ZERO_SELF_SIGNED_CERT', 'self.page.test, 2 days left'], r.location);
    assert.match(r.cells[1]!, /^TLSv1\.[23]$/);
  }
  assert.equal(await trouble(), []);
  await page.close();
});

test('an http check from two locations shows each answer after its redirect, and where the target is refused', async ({ rig, browser, web }) => {
  const { page, trouble } = await openWatched(browser, `${rig.hub.base}/`);
  await page.select('#locations-select', 'ams', 'strict');
  await typeInto(page, '#http-url', `http://127.0.0.1:${web.main}/moved`);
  await typeInto(page, '#http-redirects', '1');
  await page.click('#http-run');
  assert.is(await finished(page, 'http-located-verdict'), 'Answered from 1 of 2 locations.');
  const [ams, strict] = await rows(page, 'http-located');
  assert.equal([ams!.location, ams!.state, ams!.cells[0], ams!.cells[1]], ['ams', 'done', '200', '1']);
  assert.match(ams!.cells[3]!, /^\d+\.\d+$/);
  assert.is(strict!.state, 'failed');
  assert.match(strict!.cells[0]!, '(target-forbidden)');
  assert.is(await page.$eval('#http-hop-table', (e: any) => (globalThis as any).getComputedStyle(e).display), 'none');
  assert.equal(await trouble(), []);
  await page.close();
});

test.run();
