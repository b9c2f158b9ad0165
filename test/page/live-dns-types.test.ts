import type { Browser, Page } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RECORD_TYPES } from '../../src/engines/dns/types';
import { MAX_TYPES } from '../../src/tools/dns/schema';
import { dnskeyAnchors, startKnot, type KnotServer } from '../support/knot';
import { startServer, type RunningServer } from '../support/server';
import { startUnbound, type UnboundServer } from '../support/unbound';
import { launch, openWatched, typeInto } from './browser';

// Every record type on the live page, in real Chromium: a loopback Knot serves types.test (SRV, TLSA,
// NAPTR, SVCB, HTTPS, PTR, CNAME, a delegation with its DS, and a TXT holding markup) and signed.test,
// which it signs itself; a private unbound on loopback validates signed.test with Knot's key as its
// trust anchor. The server asks both: `knot` directly (no AD), `unbound` (AD where it validated).
const test = suite<{ knot: KnotServer; unbound: UnboundServer; server: RunningServer; browser: Browser }>('GET /, every dns record type in a browser');

const TLSA_DATA = 'ab'.repeat(32);
const DS_DIGEST = 'cd'.repeat(32);
const MARKUP = '<img src=x onerror="document.body.dataset.pwned=1">';

const typesZone = {
  domain: 'types.test',
  records: [
    'all SRV 10 5 5060 sip.types.test.',
    `all TLSA 3 1 1 ${TLSA_DATA}`,
    'all NAPTR 100 10 "S" "SIP+D2U" "" _sip._udp.types.test.',
    'all SVCB 1 svc.types.test. alpn=h2,h3 port=8443',
    'all HTTPS 0 www.types.test.',
    'all PTR host.types.test.',
    'alias CNAME sip.types.test.',
    'sip A 192.0.2.50',
    'child NS ns.child.types.test.',
    'ns.child A 192.0.2.53',
    `child DS 12345 13 2 ${DS_DIGEST}`,
    `markup TXT "${MARKUP.replace(/"/g, '\\"')}"`,
  ],
};

test.before(async (ctx) => {
  ctx.knot = await startKnot([typesZone, { domain: 'signed.test', signed: true, records: ['www A 192.0.2.80'] }], '127.0.0.66');
  const stubs = ['types.test', 'signed.test'].map((zone) => ({ zone, address: ctx.knot.address, port: ctx.knot.port }));
  ctx.unbound = await startUnbound('127.0.0.67', stubs, await dnskeyAnchors(ctx.knot, 'signed.test'));
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: `knot=127.0.0.66:${ctx.knot.port},unbound=127.0.0.67:${ctx.unbound.port}`, NETTOOLS_RATE_LIMIT: '1000/1s' });
  ctx.browser = await launch();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.server?.stop();
  await ctx.unbound?.stop();
  await ctx.knot?.stop();
});

// Ticks exactly `types`, and `dnssec` as asked, then looks `domain` up and waits for the end.
async function lookUp(page: Page, domain: string, types: string[], dnssec = false): Promise<void> {
  await page.$$eval('input[name="type"]', (boxes: any[]) => boxes.forEach((b) => b.checked && b.click()));
  for (const type of types) await page.click(`input[name="type"][value="${type}"]`);
  if (dnssec) await page.click('#dns-dnssec');
  await typeInto(page, '#dns-domain', domain);
  await page.click('#dns-run');
  await page.waitForFunction(() => ((globalThis as any).document.getElementById('dns-status')?.textContent ?? '').startsWith('Done'));
}

const cell = (resolver: string, type: string) => `td[data-resolver="${resolver}"][data-type="${type}"]`;
const text = (page: Page, resolver: string, type: string) => page.$eval(cell(resolver, type), (td: any) => td.textContent);
const fields = (page: Page, resolver: string, type: string) =>
  page.$$eval(`${cell(resolver, type)} .rr .v`, (spans: any[]) => Object.fromEntries(spans.map((s) => [s.dataset.field, s.textContent])));

test('the form offers every type the API takes, four ticked, and no more than the API bounds can be ticked at once', async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  const offered = await page.$$eval('input[name="type"]', (boxes: any[]) => boxes.map((b) => b.value));
  assert.equal(offered, [...RECORD_TYPES]);
  assert.is(MAX_TYPES, 8); // the four below and the four ticked
  const ticked = () => page.$$eval('input[name="type"]:checked', (boxes: any[]) => boxes.map((b) => b.value));
  assert.equal(await ticked(), ['A', 'AAAA', 'MX', 'TXT']);
  for (const type of ['CNAME', 'NS', 'PTR', 'SOA']) await page.click(`input[name="type"][value="${type}"]`);
  const disabled = () => page.$$eval('input[name="type"]:disabled', (boxes: any[]) => boxes.map((b) => b.value));
  assert.equal(await disabled(), ['CAA', 'SRV', 'NAPTR', 'DS', 'DNSKEY', 'TLSA', 'HTTPS', 'SVCB']);
  await page.click('input[name="type"][value="SOA"]');
  assert.equal(await disabled(), []);
  assert.equal(await trouble(), []);
  await page.close();
});

test('SRV, TLSA, NAPTR, SVCB, HTTPS and PTR show each record as its fields, named where numbers say little', async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await lookUp(page, 'all.types.test', ['SRV', 'TLSA', 'NAPTR', 'SVCB', 'HTTPS', 'PTR']);
  assert.equal(await fields(page, 'knot', 'SRV'), { priority: '10', weight: '5', port: '5060', target: 'sip.types.test' });
  assert.is(await text(page, 'knot', 'SRV'), 'priority 10 weight 5 port 5060 target sip.types.test');
  assert.is(await text(page, 'knot', 'TLSA'), `usage 3 (DANE-EE) selector 1 (SPKI) matching 1 (SHA-256) data ${TLSA_DATA}`);
  assert.is(await text(page, 'knot', 'NAPTR'), 'order 100 pref 10 flags "S" services "SIP+D2U" regexp "" replacement _sip._udp.types.test');
  assert.is(await text(page, 'knot', 'SVCB'), 'priority 1 target svc.types.test alpn=h2,h3 port=8443');
  assert.is(await text(page, 'knot', 'HTTPS'), 'priority 0 (alias) target www.types.test');
  assert.is(await text(page, 'knot', 'PTR'), 'host.types.test');
  assert.is(await page.$eval(`${cell('knot', 'SRV')} .k`, (k: any) => k.textContent), 'priority ');
  assert.equal(await trouble(), []);
  await page.close();
});

test('a CNAME shows the alias and the name it points to', async ({ server, browser }) => {
  const { page } = await openWatched(browser, `${server.base}/`);
  await lookUp(page, 'alias.types.test', ['CNAME']);
  assert.equal(await fields(page, 'knot', 'CNAME'), { name: 'alias.types.test', target: '→ sip.types.test' });
  await page.close();
});

test("a DS shows its key tag, and its algorithm and digest type by name", async ({ server, browser }) => {
  const { page } = await openWatched(browser, `${server.base}/`);
  await lookUp(page, 'child.types.test', ['DS']);
  assert.is(await text(page, 'knot', 'DS'), `key tag 12345 algorithm 13 (ECDSAP256SHA256) digest type 2 (SHA-256) digest ${DS_DIGEST}`);
  await page.close();
});

test('with DNSSEC ticked each cell shows the AD flag and the RRSIGs: set by the validating resolver alone', async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await lookUp(page, 'www.signed.test', ['A'], true);
  const dnssec = (resolver: string) => page.$eval(`${cell(resolver, 'A')} .dnssec`, (s: any) => [s.textContent, s.dataset.ad, s.dataset.rrsigs]);
  assert.equal(await dnssec('unbound'), ['AD, 1 RRSIG', 'yes', '1']);
  assert.equal(await dnssec('knot'), ['no AD, 1 RRSIG', 'no', '1']);
  assert.is(await text(page, 'knot', 'A'), '192.0.2.80\nno AD, 1 RRSIG');
  assert.equal(await trouble(), []);
  await page.close();
});

test("a signed zone's DNSKEY shows its flags as KSK and its algorithm by name", async ({ server, browser }) => {
  const { page } = await openWatched(browser, `${server.base}/`);
  await lookUp(page, 'signed.test', ['DNSKEY']);
  const key = await fields(page, 'knot', 'DNSKEY');
  assert.equal([key['flags'], key['protocol'], key['algorithm']], ['257 (KSK)', '3', '13 (ECDSAP256SHA256)']);
  assert.match(key['publicKey']!, /^[A-Za-z0-9+/]{86}==$/);
  await page.close();
});

test('a TXT record holding markup is shown as its text, never made an element', async ({ server, browser }) => {
  const { page, trouble } = await openWatched(browser, `${server.base}/`);
  await lookUp(page, 'markup.types.test', ['TXT']);
  assert.is(await text(page, 'knot', 'TXT'), `"${MARKUP}"`);
  assert.is(await page.$$eval('#dns img', (imgs) => imgs.length), 0);
  assert.is(await page.$eval('body', (b: any) => b.dataset.pwned ?? 'untouched'), 'untouched');
  assert.equal(await trouble(), []);
  await page.close();
});

test.run();
