import net from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { freeTcpPort } from '../support/ports';
import { startServer, type RunningServer } from '../support/server';
import { sleep, waitFor } from '../support/wait';
import { count, launch, openWatched, textOf, typeInto } from './browser';

// The live page's tcp check in real Chromium against a real server: a listener on 127.0.0.1 that accepts,
// and a port of 127.0.0.1 nothing listens on. No resolver is asked (the host is an IP); private targets
// are on for loopback.
const test = suite<{ server: RunningServer; browser: Browser; listener: net.Server; open: number; closed: number }>('GET /, tcp in a browser');

test.before(async (ctx) => {
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s' });
  ctx.listener = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => ctx.listener.listen(0, '127.0.0.1', resolve));
  ctx.open = (ctx.listener.address() as net.AddressInfo).port;
  ctx.closed = await freeTcpPort('127.0.0.1');
  ctx.browser = await launch();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.server?.stop();
  await new Promise((r) => ctx.listener?.close(r));
});

async function check(page: Page, port: number, attempts: number): Promise<void> {
  await typeInto(page, '#tcp-host', '127.0.0.1');
  await typeInto(page, '#tcp-port', String(port));
  await typeInto(page, '#tcp-count', String(attempts));
  await page.click('#tcp-run');
}

const done = (page: Page) => page.waitForFunction(() => ((globalThis as any).document.getElementById('tcp-status')?.textContent ?? '').startsWith('Done'));
const attempts = (page: Page) =>
  page.$$eval('#tcp-attempts tr', (trs: any[]) => trs.map((tr) => ({ seq: tr.dataset.seq, status: tr.dataset.status, cells: [...tr.cells].map((c: any) => c.textContent) })));

test('a tcp check of a loopback listener adds a row per attempt as it ends, then the statistics', async ({ server, browser, open }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await page.waitForFunction(() => !(globalThis as any).document.getElementById('tcp').hidden);
  await check(page, open, 3);
  await page.waitForSelector('#tcp-attempts tr');
  // The first row is there while the stream still runs: added on arrival, not from the summary.
  assert.ok((await count(page, '#tcp-attempts tr')) < 3);
  assert.is(await textOf(page, '#tcp-sent'), '0');
  await done(page);
  const rows = await attempts(page);
  assert.equal(rows.map((r) => [r.seq, r.status]), [['0', 'connected'], ['1', 'connected'], ['2', 'connected']]);
  for (const row of rows) assert.match(row.cells[2]!, /^\d+\.\d+ ms$/);
  assert.is(await textOf(page, '#tcp-sent'), '3');
  assert.is(await textOf(page, '#tcp-connected'), '3');
  assert.is(await textOf(page, '#tcp-loss'), '0 %');
  for (const id of ['#tcp-min', '#tcp-avg', '#tcp-max']) assert.match(await textOf(page, id), /^\d+\.\d+$/, id);
  assert.is(await textOf(page, '#tcp-status'), `Done: 127.0.0.1 port ${open} accepted 3 of 3 connections.`);
  assert.equal(await trouble(), []);
  await page.close();
});

test('a tcp check of a closed port shows each attempt refused, and no connect time', async ({ server, browser, closed }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await page.waitForFunction(() => !(globalThis as any).document.getElementById('tcp').hidden);
  await check(page, closed, 2);
  await done(page);
  const rows = await attempts(page);
  assert.equal(rows.map((r) => r.cells), [['0', 'refused', 'ECONNREFUSED'], ['1', 'refused', 'ECONNREFUSED']]);
  assert.is(await textOf(page, '#tcp-connected'), '0');
  assert.is(await textOf(page, '#tcp-loss'), '100 %');
  assert.is(await textOf(page, '#tcp-avg'), '–');
  assert.is(await textOf(page, '#tcp-status'), `Done: 127.0.0.1 port ${closed} accepted 0 of 2 connections.`);
  assert.equal(await trouble(), []);
  await page.close();
});

test('a port the policy refuses shows the problem, and Run is ready again', async ({ server, browser }) => {
  const { page } = await openWatched(browser, `${server.base}/`);
  await page.waitForFunction(() => !(globalThis as any).document.getElementById('tcp').hidden);
  await check(page, 25, 1);
  await page.waitForFunction(() => (globalThis as any).document.getElementById('tcp-status').classList.contains('error'));
  assert.match(await textOf(page, '#tcp-status'), '(target-forbidden)');
  assert.is(await count(page, '#tcp-attempts tr'), 0);
  assert.not.ok(await page.$eval('#tcp-run', (b: any) => b.disabled));
  await page.close();
});

test('Stop aborts the stream: no row comes after it and the server ends the check', async ({ server, browser, open }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await page.waitForFunction(() => !(globalThis as any).document.getElementById('tcp').hidden);
  await check(page, open, 10);
  await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('#tcp-attempts tr').length >= 2);
  await page.click('#tcp-stop');
  await page.waitForFunction(() => (globalThis as any).document.getElementById('tcp-status').textContent === 'Stopped.');
  const shown = await count(page, '#tcp-attempts tr');
  await waitFor('the server to end the stream', () => server.app.inFlight() === 0, { timeoutMs: 3000 });
  await sleep(2100); // two intervals: a check still running would have added rows by now
  assert.is(await count(page, '#tcp-attempts tr'), shown);
  assert.ok(shown < 10);
  assert.not.ok(await page.$eval('#tcp-run', (b: any) => b.disabled));
  assert.ok(await page.$eval('#tcp-stop', (b: any) => b.disabled));
  assert.equal(await trouble(), []);
  await page.close();
});

test.run();
