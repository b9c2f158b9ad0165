import type { Browser, Page } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { netnsTracker } from '../support/netns';
import { dnsTool } from '../../src/tools/dns';
import { pingTool } from '../../src/tools/ping';
import { startServer, type RunningServer } from '../support/server';
import { sleep, waitFor } from '../support/wait';
import { count, launch, openWatched, textOf, typeInto } from './browser';

// The live page's ping in real Chromium against a real server: 127.0.0.1, and a namespace host that
// drops every second echo request. No resolver is asked (the hosts are IPs); private targets are on for
// loopback and the namespace only.
const test = suite<{ server: RunningServer; browser: Browser }>('GET /, ping in a browser');
const { netns, dropAll } = netnsTracker();

test.before(async (ctx) => {
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s' });
  ctx.browser = await launch();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.server?.stop();
  dropAll();
});

async function ping(page: Page, host: string, echoes: number, intervalMs: number): Promise<void> {
  await typeInto(page, '#ping-host', host);
  await typeInto(page, '#ping-count', String(echoes));
  await typeInto(page, '#ping-interval', String(intervalMs));
  await page.keyboard.press('Enter');
}

const statusStarts = (page: Page, start: string) => page.waitForFunction((s: string) => ((globalThis as any).document.getElementById('ping-status')?.textContent ?? '').startsWith(s), {}, start);

test('the page loads with no CSP refusal, console error or request elsewhere, and shows Trace as the server offers traceroute', async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  assert.ok(await page.$eval('#ping', (e: any) => e.offsetHeight > 0));
  await page.waitForFunction(() => !(globalThis as any).document.getElementById('trace').hidden);
  assert.equal(await trouble(), []);
  await page.close();
});

test('a server without traceroute gets no Trace section', async ({ browser }) => {
  const server = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9' }, undefined, { tools: [pingTool, dnsTool] });
  try {
    const { page, trouble } = await openWatched(browser, `${server.base}/`);
    await page.waitForSelector('body[data-ready="true"]'); // it has read /openapi.json and decided
    assert.ok(await page.$eval('#trace', (e: any) => e.hidden));
    assert.equal(await trouble(), []);
    await page.close();
  } finally {
    await server.stop();
  }
});

test('a 5-echo ping of 127.0.0.1 draws each point as its reply arrives, then the figures', async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await ping(page, '127.0.0.1', 5, 500);
  await page.waitForSelector('#ping-chart circle.rtt');
  // The first point is there while the stream still runs: drawn on arrival, not from the summary.
  assert.ok((await count(page, '#ping-chart circle.rtt')) < 5);
  assert.not.match(await textOf(page, '#ping-status'), /^Done/);
  await statusStarts(page, 'Done');
  assert.is(await count(page, '#ping-chart circle.rtt'), 5);
  assert.is(await count(page, '#ping-chart .lost'), 0);
  assert.equal(await page.$$eval('#ping-chart circle.rtt', (els) => els.map((e) => e.getAttribute('data-seq'))), ['0', '1', '2', '3', '4']);
  assert.is(await textOf(page, '#ping-sent'), '5');
  assert.is(await textOf(page, '#ping-loss'), '0 %');
  for (const id of ['#ping-min', '#ping-avg', '#ping-max']) assert.match(await textOf(page, id), /^\d+\.\d+$/, id);
  assert.is(await textOf(page, '#ping-status'), 'Done: 127.0.0.1 answered 5 of 5 echoes.');
  assert.equal(await trouble(), []);
  await page.close();
});

test('lost echoes are marked apart from round trips and counted in the loss', async ({ server, browser }) => {
  const ns = netns();
  // Every second echo request dropped in the namespace: seq 1 and 3 of four are lost, whatever the timing.
  ns.exec(['iptables', '-A', 'INPUT', '-p', 'icmp', '--icmp-type', 'echo-request', '-m', 'statistic', '--mode', 'nth', '--every', '2', '--packet', '1', '-j', 'DROP']);
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await ping(page, ns.nsV4, 4, 200);
  await statusStarts(page, 'Done');
  assert.equal(await page.$$eval('#ping-chart circle.rtt', (els) => els.map((e) => e.getAttribute('data-seq'))), ['0', '2']);
  assert.equal(await page.$$eval('#ping-chart .lost', (els) => els.map((e) => e.getAttribute('data-seq'))), ['1', '3']);
  assert.match(await textOf(page, '#ping-chart .lost title'), 'echo 1: timeout');
  assert.is(await textOf(page, '#ping-loss'), '50 %');
  assert.equal(await trouble(), []);
  await page.close();
});

test('Stop aborts the stream: no point comes after it and the server ends the measurement', async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await ping(page, '127.0.0.1', 10, 1000);
  await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('#ping-chart circle.rtt').length >= 2);
  assert.ok(await page.$eval('#ping-run', (b: any) => b.disabled));
  await page.click('#ping-stop');
  await statusStarts(page, 'Stopped.');
  const drawn = await count(page, '#ping-chart circle.rtt');
  await waitFor('the server to end the stream', () => server.app.inFlight() === 0, { timeoutMs: 3000 });
  await sleep(2100); // two intervals: a stream still running would have drawn more points by now
  assert.is(await count(page, '#ping-chart circle.rtt'), drawn);
  assert.ok(drawn < 10);
  assert.not.ok(await page.$eval('#ping-run', (b: any) => b.disabled));
  assert.ok(await page.$eval('#ping-stop', (b: any) => b.disabled));
  assert.equal(await trouble(), []);
  await page.close();
});

test.run();
