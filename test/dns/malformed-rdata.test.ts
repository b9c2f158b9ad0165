import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient, type QueryEntry, type RecordType, type ResolverClient } from '../../src/engines/dns';
import { startRdataDns, type RdataScript } from '../support/rdata-dns';

// RDATA no real server sends, from a scripted resolver: over TCP (after a truncated UDP answer) it is
// reported as malformed with the reason; over UDP it is dropped like any forgery and the true answer that
// follows is taken. Never a crash, never a record made up from half a field.

const DOMAIN = 'bad.test';
// Header (12) + question (bad.test: 10 bytes of name, type, class) + the record's owner pointer and
// fixed fields (12): where the RDATA starts, for pointers that aim into it.
const RDATA_AT = 12 + 14 + 12;

const CODES: Partial<Record<RecordType, number>> = { NS: 2, SOA: 6, SRV: 33, NAPTR: 35, DS: 43, DNSKEY: 48, TLSA: 52, SVCB: 64, HTTPS: 65, CAA: 257 };

let client: ResolverClient;

test.before(() => {
  client = openResolverClient();
});

test.after(() => client?.close());

function name(...labels: string[]): Buffer {
  return Buffer.concat([...labels.map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])), Buffer.from([0])]);
}

function u16(...values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 2);
  values.forEach((v, i) => b.writeUInt16BE(v, i * 2));
  return b;
}

function u32(...values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeUInt32BE(v, i * 4));
  return b;
}

const SOA = Buffer.concat([name('ns', 'bad', 'test'), u16(0xc00c), u32(1, 3600, 900, 604800, 60)]);

async function ask(type: RecordType, script: Omit<RdataScript, 'type'>, timeoutMs = 2000): Promise<QueryEntry | undefined> {
  const dns = await startRdataDns({ ...script, type: CODES[type] as number });
  try {
    const [r] = await client.query({ domain: DOMAIN, types: [type], resolvers: [{ id: 'bad', address: dns.address, port: dns.port, family: 4 }], timeoutMs });
    return r?.queries[type];
  } finally {
    await dns.stop();
  }
}

const MALFORMED: Array<[what: string, type: RecordType, rdata: Buffer, detail: string]> = [
  ['an SOA cut in its numbers', 'SOA', SOA.subarray(0, SOA.length - 3), 'bad-rdata'],
  ['an SOA with one name only', 'SOA', name('ns', 'bad', 'test'), 'bad-rdata'],
  ['an SOA with a byte after its numbers', 'SOA', Buffer.concat([SOA, Buffer.from([0])]), 'bad-rdata'],
  ['an SOA mname whose pointer points at itself', 'SOA', Buffer.concat([Buffer.from([1, 0x61]), u16(0xc000 | RDATA_AT), u32(1, 2, 3, 4, 5)]), 'bad-compression-pointer'],
  ['an SOA mname whose pointer points forward', 'SOA', Buffer.concat([u16(0xc000 | (RDATA_AT + 4)), u16(0xc00c), u32(1, 2, 3, 4, 5)]), 'bad-compression-pointer'],
  ['an SRV of five bytes', 'SRV', Buffer.concat([u16(1, 2), Buffer.from([1])]), 'bad-rdata'],
  ['an SRV whose target runs past RDLENGTH', 'SRV', Buffer.concat([u16(1, 2, 443), Buffer.from([5, 0x61, 0x62])]), 'bad-rdata'],
  ['a NAPTR string running past RDLENGTH', 'NAPTR', Buffer.concat([u16(100, 10), Buffer.from([1, 0x55, 0x30, 0x45])]), 'bad-rdata'],
  ['a CAA with an empty tag', 'CAA', Buffer.from([0, 0, 0x76]), 'bad-rdata'],
  ['a DS without a digest', 'DS', Buffer.concat([u16(12345), Buffer.from([13, 2])]), 'bad-rdata'],
  ['a DNSKEY without a key', 'DNSKEY', Buffer.concat([u16(257), Buffer.from([3, 8])]), 'bad-rdata'],
  ['a TLSA cut in its fields', 'TLSA', Buffer.from([3, 1]), 'bad-rdata'],
  ['an SVCB whose keys go down', 'SVCB', Buffer.concat([u16(1), Buffer.from([0]), u16(3, 2, 443), u16(1, 3), Buffer.from([2, 0x68, 0x32])]), 'bad-rdata'],
  ['an HTTPS alpn id running past its value', 'HTTPS', Buffer.concat([u16(1), Buffer.from([0]), u16(1, 2), Buffer.from([5, 0x68])]), 'bad-rdata'],
  ['an HTTPS port of three bytes', 'HTTPS', Buffer.concat([u16(1), Buffer.from([0]), u16(3, 3), Buffer.from([1, 0xbb, 0])]), 'bad-rdata'],
  ['an HTTPS ipv6hint of 15 bytes', 'HTTPS', Buffer.concat([u16(1), Buffer.from([0]), u16(6, 15), Buffer.alloc(15)]), 'bad-rdata'],
  ['an NS name running past RDLENGTH', 'NS', Buffer.from([5, 0x61, 0x62]), 'bad-rdata'],
];

for (const [what, type, rdata, detail] of MALFORMED) {
  test(`over TCP, ${what} is reported as malformed (${detail})`, async () => {
    assert.equal(await ask(type, { rdata, udp: 'truncate' }), { error: 'malformed', detail });
  });
}

test('over UDP, a truncated SOA is dropped and counted, and the true answer that follows is taken', async () => {
  const before = client.counters().malformedDropped;
  const entry = await ask('SOA', { rdata: SOA.subarray(0, 20), udp: 'answer-then-valid', valid: SOA });
  assert.ok(entry && 'answers' in entry, JSON.stringify(entry));
  assert.equal(entry.answers, [{ mname: 'ns.bad.test', rname: 'bad.test', serial: 1, refresh: 3600, retry: 900, expire: 604800, minimum: 60, ttl: 300 }]);
  assert.is(client.counters().malformedDropped - before, 1);
});

test('over UDP, a short SRV and nothing else: the query times out, nothing made up', async () => {
  assert.equal(await ask('SRV', { rdata: Buffer.from([0, 1, 0]), udp: 'answer' }, 300), { error: 'timeout' });
});

test.run();
