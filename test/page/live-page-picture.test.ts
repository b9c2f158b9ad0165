import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../architecture/source-files';
import { startKnot, type KnotServer } from '../support/knot';
import { netnsTracker } from '../support/netns';
import { startServer, type RunningServer } from '../support/server';
import { launch, openWatched, typeInto } from './browser';

// The README's picture of the live page, from a real run: a ping of a namespace host that drops every
// fourth echo request, and a lookup on two loopback Knots that differ on TXT. The picture always goes to a
// temp dir and is checked to be a PNG; NETTOOLS_PAGE_SCREENSHOT=1 writes docs/images/live-page.png too.
const test = suite<{ a: KnotServer; b: KnotServer; server: RunningServer; browser: Browser }>('GET /, the README picture');
const { netns, dropAll } = netnsTracker();
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

test.before(async (ctx) => {
  ctx.a = await startKnot([{ domain: 'example.test', records: ['@ A 192.0.2.10', '@ MX 10 mail.example.test.', '@ TXT "v=spf1 -all"'] }], '127.0.0.63');
  ctx.b = await startKnot([{ domain: 'example.test', records: ['@ A 192.0.2.10', '@ MX 10 mail.example.test.', '@ TXT "v=spf1 ~all"'] }], '127.0.0.64');
  const resolvers = `local-a=127.0.0.63:${ctx.a.port},local-b=127.0.0.64:${ctx.b.port}`;
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: resolvers, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s' });
  ctx.browser = await launch();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.server?.stop();
  await ctx.a?.stop();
  await ctx.b?.stop();
  dropAll();
});

test('a ping with losses and a lookup that disagrees, drawn and photographed', async ({ server, browser }) => {
  const ns = netns();
  ns.exec(['iptables', '-A', 'INPUT', '-p', 'icmp', '--icmp-type', 'echo-request', '-m', 'statistic', '--mode', 'nth', '--every', '4', '--packet', '3', '-j', 'DROP']);
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await typeInto(page, '#ping-host', ns.nsV4);
  await typeInto(page, '#ping-count', '10');
  await typeInto(page, '#ping-interval', '200');
  await page.click('#ping-run');
  await typeInto(page, '#dns-domain', 'example.test');
  await page.click('#dns-run');
  await page.waitForFunction(() => ['ping-status', 'dns-status'].every((id) => ((globalThis as any).document.getElementById(id).textContent ?? '').startsWith('Done')));
  assert.is((await page.$$('#ping-chart circle.rtt')).length, 8);
  assert.is((await page.$$('#ping-chart .lost')).length, 2);
  const dir = mkdtempSync(join(tmpdir(), 'nt-page-'));
  try {
    const shot = join(dir, 'live-page.png');
    await page.screenshot({ path: shot, fullPage: true });
    assert.ok(readFileSync(shot).subarray(0, 8).equals(PNG_SIGNATURE));
    if (process.env['NETTOOLS_PAGE_SCREENSHOT']) {
      mkdirSync(join(ROOT, 'docs', 'images'), { recursive: true });
      await page.screenshot({ path: join(ROOT, 'docs', 'images', 'live-page.png'), fullPage: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(await trouble(), []);
  await page.close();
});

test.run();
