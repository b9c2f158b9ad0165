import type { Browser } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Tool } from '../../src/tools/tool';
import { tracerouteTool } from '../../src/tools/traceroute';
import { startServerWithTools, type RunningServer } from '../support/server';
import { sleep } from '../support/wait';
import { launch, openWatched, textOf, typeInto } from './browser';

// The page's Trace section appears only when /openapi.json lists POST /api/tools/traceroute. A tool made
// here stands at its path and sends hop events shaped as CONTRACT "Traceroute" says, a quarter second
// apart, so the list is seen filling as they arrive (the real tool's verdicts: live-trace-verdict.test.ts).
const test = suite<{ server: RunningServer; browser: Browser }>('GET /, trace in a browser');

const HOPS = [
  { ttl: 1, probes: [{ address: '198.18.0.1', rttMs: 0.1, icmp: { type: 11, code: 0, name: 'time-exceeded' } }] },
  { ttl: 2, probes: [{ status: 'timeout' }] },
  { ttl: 3, name: 'far.test', probes: [{ address: '198.18.0.3', rttMs: 0.3, icmp: { type: 0, code: 0, name: 'echo-reply' } }] },
];

const traceStandIn: Tool<any, any> = {
  ...tracerouteTool,
  name: 'traceroute',
  path: '/api/tools/traceroute',
  open: () => ({
    info: {},
    close() {},
    run: async (request, _cancel, events) => {
      events?.start({ host: request.host });
      for (const hop of HOPS) {
        await sleep(250); // the hops' own pace, so the page is seen between them
        events?.item('hop', hop);
      }
      const value = { host: request.host, address: request.host, ipVersion: 4, destinationReached: false, hops: HOPS, durationMs: 750.5, startedAt: new Date().toISOString() };
      return { ok: true, value };
    },
  }),
};

test.before(async (ctx) => {
  ctx.server = await startServerWithTools([traceStandIn], { NETTOOLS_RATE_LIMIT: '1000/1s' });
  ctx.browser = await launch();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.server?.stop();
});

test('with traceroute offered, the Trace section shows and lists each hop as it arrives', async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  assert.not.ok(await page.$eval('#trace', (e: any) => e.hidden));
  await typeInto(page, '#trace-host', '127.0.0.1');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#trace-hops li');
  assert.ok((await page.$$('#trace-hops li')).length < 3);
  await page.waitForFunction(() => (globalThis as any).document.getElementById('trace-status').textContent === 'Done in 751 ms.');
  const hops = await page.$$eval('#trace-hops li', (els) => els.map((e) => (e as any).innerText));
  assert.equal(hops, ['1 198.18.0.1 0.1 ms time-exceeded', '2 *', '3 198.18.0.3 0.3 ms echo-reply (far.test)']);
  assert.equal(await trouble(), []);
  await page.close();
});

test('each hop shows its TTL once: as its text, with no list number beside it', async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await typeInto(page, '#trace-host', '127.0.0.1');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('#trace-hops li').length === 3);
  // A list marker is drawn unless the list style is none; innerText leaves markers out and holds the rest.
  const shown = await page.$$eval('#trace-hops li', (els) =>
    els.map((li: any) => {
      const marker = (globalThis as any).getComputedStyle(li).listStyleType === 'none' ? [] : [String(li.value)];
      return [...marker, ...(li.innerText as string).split(/\s+/).filter((word: string) => /^\d+$/.test(word))];
    }),
  );
  assert.equal(shown, [['1'], ['2'], ['3']]);
  assert.equal(await trouble(), []);
  await page.close();
});

test.run();
