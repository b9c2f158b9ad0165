import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cli, dnsResult } from './hostile-answers';
import { json, startHostile, type Hostile } from './hostile-server';

// `nettools dns DOMAIN TYPE...` as dig takes it, --dnssec, and every record type's data as dig prints it.
const test = suite<{ hostile: Hostile }>('nettools dns: more record types');

test.before(async (ctx) => {
  ctx.hostile = await startHostile();
});

test.after(async (ctx) => {
  await ctx.hostile?.close();
});

test('types after the domain, as dig takes them, and --dnssec reach the server as types and dnssec', async ({ hostile }) => {
  hostile.answer(json(200, dnsResult()));
  const r = await cli(['dns', 'example.test', 'NS', 'soa', '--dnssec', '--server', hostile.base]);
  assert.is(r.code, 0, r.err);
  assert.equal(hostile.requests.at(-1), { domain: 'example.test', types: ['NS', 'SOA'], dnssec: true });
});

const RECORDS: Record<string, [Record<string, unknown>, string]> = {
  NS: [{ name: 'ns1.example.test', ttl: 60 }, 'ns1.example.test.'],
  SOA: [{ mname: 'ns1.example.test', rname: 'hostmaster.example.test', serial: 2026112701, refresh: 3600, retry: 600, expire: 86400, minimum: 300, ttl: 60 }, 'ns1.example.test. hostmaster.example.test. 2026112701 3600 600 86400 300'],
  CAA: [{ flags: 0, tag: 'issue', value: 'ca.example', ttl: 60 }, '0 issue "ca.example"'],
  SRV: [{ priority: 10, weight: 5, port: 5060, target: 'sip.example.test', ttl: 60 }, '10 5 5060 sip.example.test.'],
  NAPTR: [{ order: 100, preference: 10, flags: 'S', services: 'SIP+D2U', regexp: '', replacement: '_sip._udp.example.test', ttl: 60 }, '100 10 "S" "SIP+D2U" "" _sip._udp.example.test.'],
  DS: [{ keyTag: 12345, algorithm: 13, digestType: 2, digest: 'ab01', ttl: 60 }, '12345 13 2 AB01'],
  DNSKEY: [{ flags: 257, protocol: 3, algorithm: 13, publicKey: 'mdsswUyr3DPW', ttl: 60 }, '257 3 13 mdsswUyr3DPW'],
  TLSA: [{ usage: 3, selector: 1, matchingType: 1, data: 'beef', ttl: 60 }, '3 1 1 BEEF'],
  HTTPS: [{ priority: 1, target: '.', params: { alpn: ['h2', 'h3'], port: 443 }, ttl: 60 }, '1 . alpn=h2,h3 port=443'],
  PTR: [{ name: 'host.example.test', ttl: 60 }, 'host.example.test.'],
};

test('each record type is printed with its data in dig\'s presentation order', async ({ hostile }) => {
  const records = Object.fromEntries(Object.entries(RECORDS).map(([type, [record]]) => [type, [record]]));
  hostile.answer(json(200, dnsResult({ records })));
  const r = await cli(['dns', 'example.test', '--server', hostile.base]);
  assert.is(r.code, 0, r.err);
  for (const [type, [, data]] of Object.entries(RECORDS)) assert.ok(r.out.includes(`example.test.\t60\tIN\t${type}\t${data}`), `${type}: ${r.out}`);
});

test('a CNAME link is printed under its own owner name', async ({ hostile }) => {
  hostile.answer(json(200, dnsResult({ records: { CNAME: [{ name: 'www.example.test', target: 'web.example.test', ttl: 30 }] } })));
  const r = await cli(['dns', 'www.example.test', 'CNAME', '--server', hostile.base]);
  assert.ok(r.out.includes('www.example.test.\t30\tIN\tCNAME\tweb.example.test.'), r.out);
});

test.run();
