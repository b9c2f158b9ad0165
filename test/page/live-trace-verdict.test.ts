import type { Browser, Page } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { netnsTracker } from '../support/netns';
import { startServer, type RunningServer } from '../support/server';
import { launch, openWatched, typeInto } from './browser';

// The line a finished trace ends with, from the real traceroute tool: loopback is reached at once; a host
// in a namespace that ignores echo requests answers nothing, so the trace runs to its hop limit.
const test = suite<{ server: RunningServer; browser: Browser }>('GET /, the verdict of a trace');
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

async function trace(page: Page, host: string): Promise<{ text: string; verdict: string }> {
  await typeInto(page, '#trace-host', host);
  await page.click('#trace-run');
  const verdictShown = () => (globalThis as any).document.getElementById('trace-verdict').textContent !== '';
  await page.waitForFunction(verdictShown, { timeout: 20_000 }).catch(async (err: Error) => {
    throw new Error(`${err.message}; the status said: ${await page.$eval('#trace-status', (e: any) => e.textContent)}`);
  });
  return page.$eval('#trace-verdict', (e: any) => ({ text: e.textContent, verdict: e.dataset.verdict }));
}

test('a trace that reaches its host says so, with the number of hops', async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  assert.equal(await trace(page, '127.0.0.1'), { text: 'Reached 127.0.0.1 in 1 hop.', verdict: 'reached' });
  assert.equal(await trouble(), []);
  await page.close();
});

test('a trace whose host never answers says it was not reached, within how many hops', async ({ server, browser }) => {
  const ns = netns();
  ns.exec(['sysctl', '-qw', 'net.ipv4.icmp_echo_ignore_all=1']);
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  const shown = await trace(page, ns.nsV4);
  assert.equal(shown, { text: `Not reached: no answer from ${ns.nsV4} within 30 hops.`, verdict: 'not-reached' });
  assert.is(await page.$$eval('#trace-hops li', (els) => els.length), 30);
  assert.equal(await trouble(), []);
  await page.close();
});

test.run();
