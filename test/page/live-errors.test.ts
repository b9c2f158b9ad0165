import type { Browser, Page } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { pingTool } from '../../src/tools/ping';
import type { Tool } from '../../src/tools/tool';
import { startServerWithTools, startServer, type RunningServer } from '../support/server';
import { launch, openWatched, textOf, typeInto } from './browser';

// What the live page shows when the server says no: a problem before the stream (validation, a rate
// limit with Retry-After) and a problem event in the middle of one (the server shutting down).
// Each is a failed request in the browser's console by design, so console errors are not checked here.
const test = suite<{ open: RunningServer; tight: RunningServer; browser: Browser }>('GET /, errors in a browser');

const ENV = { NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' };

test.before(async (ctx) => {
  ctx.open = await startServer({ ...ENV, NETTOOLS_RATE_LIMIT: '1000/1s' });
  ctx.tight = await startServer({ ...ENV, NETTOOLS_RATE_LIMIT: '1/60s' });
  ctx.browser = await launch();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.open?.stop();
  await ctx.tight?.stop();
});

async function ping(page: Page, host: string, echoes: number, intervalMs: number): Promise<void> {
  await typeInto(page, '#ping-host', host);
  await typeInto(page, '#ping-count', String(echoes));
  await typeInto(page, '#ping-interval', String(intervalMs));
  await page.click('#ping-run');
}

// A ping that fails after two echoes, the way an engine failure mid-run ends a stream: its problem event.
const failsAfterTwo: Tool<any, any> = {
  ...pingTool,
  open: () => ({
    info: {},
    close() {},
    run: async (request, _cancel, events) => {
      events?.start({ host: request.host, address: request.host, ipVersion: 4, count: 5, intervalMs: 100, timeoutMs: 1000, size: 56, resolveMs: 0, startedAt: new Date().toISOString() });
      for (const seq of [0, 1]) events?.item('reply', { seq, status: 'reply', rttMs: 0.05 + seq / 100, ttl: 64, bytes: 64 });
      return { ok: false, failure: { code: 'engine-busy', detail: 'injected after two echoes', retryAfterSeconds: 1 } };
    },
  }),
};

const settled = (page: Page) => page.waitForFunction(() => !(globalThis as any).document.getElementById('ping-run').disabled);

test('a request the server refuses shows its problem and the field at fault, as an error', async ({ open, browser }) => {
  const { page } = await openWatched(browser, `${open.base}/`);
  await ping(page, 'no such host!', 1, 100);
  await settled(page);
  const text = await textOf(page, '#ping-status');
  assert.match(text, '(validation-failed)');
  assert.match(text, 'host must be a host name');
  assert.ok(await page.$eval('#ping-status', (e: any) => e.classList.contains('error')));
  await page.close();
});

test('a rate limit before the stream says when to try again', async ({ tight, browser }) => {
  const { page } = await openWatched(browser, `${tight.base}/`);
  await ping(page, '127.0.0.1', 1, 100);
  await page.waitForFunction(() => ((globalThis as any).document.getElementById('ping-status').textContent ?? '').startsWith('Done'));
  await ping(page, '127.0.0.1', 1, 100);
  await page.waitForFunction(() => ((globalThis as any).document.getElementById('ping-status').textContent ?? '').includes('rate-limited'));
  assert.match(await textOf(page, '#ping-status'), /\(rate-limited\)\. Try again in \d+ s\.$/);
  await page.close();
});

test('a problem event during the stream is shown as an error, and the points drawn so far stay', async ({ browser }) => {
  const server = await startServerWithTools([failsAfterTwo], { NETTOOLS_RATE_LIMIT: '1000/1s' });
  try {
    const { page } = await openWatched(browser, `${server.base}/`);
    await ping(page, '127.0.0.1', 5, 100);
    await page.waitForFunction(() => ((globalThis as any).document.getElementById('ping-status').textContent ?? '').includes('(overloaded)'));
    assert.ok(await page.$eval('#ping-status', (e: any) => e.classList.contains('error')));
    assert.is((await page.$$('#ping-chart circle.rtt')).length, 2);
    await settled(page);
    await page.close();
  } finally {
    await server.stop();
  }
});

test.run();
