import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient, type QueryAnswered, type RecordType, type ResolverClient } from '../../src/engines/dns';
import { kdigAnswer } from '../support/kdig';
import { startKnot, stopAllKnot, type KnotServer } from '../support/knot';
import { presentation } from './presentation';
import { TYPES_ZONE } from './type-zones';

// Every newer record type, asked of a real Knot by the engine and by kdig: the records must agree one by
// one, RDATA and TTL, with names in the case Knot sends them.

let knot: KnotServer;
let client: ResolverClient;

test.before(async () => {
  knot = await startKnot([TYPES_ZONE], '127.0.0.1');
  client = openResolverClient();
});

test.after(async () => {
  client?.close();
  await stopAllKnot();
});

async function answered(domain: string, type: RecordType): Promise<QueryAnswered> {
  const [result] = await client.query({ domain, types: [type], resolvers: [knot.resolver('knot')], timeoutMs: 3000 });
  const entry = result?.queries[type];
  assert.ok(entry && 'rcode' in entry, `expected an answer, got ${JSON.stringify(entry)}`);
  return entry as QueryAnswered;
}

// kdig 3.4 (Debian 13) writes SvcParams as RFC 9460 and 9461 have them since: alpn's list quoted, key 7
// by its name `dohpath`. The API keeps kdig 3.2's form (Debian 12): alpn unquoted, an unnamed key as key<N>.
function svcbAsKdig32(rdata: string): string {
  return rdata.replace(/\balpn="([^"]*)"/g, 'alpn=$1').replace(/\bdohpath=/g, 'key7=');
}

async function sameAsKdig(domain: string, type: RecordType, atLeast: number): Promise<QueryAnswered> {
  const [entry, kdig] = await Promise.all([answered(domain, type), kdigAnswer(knot.address, knot.port, domain, type)]);
  const ours = entry.answers.map((r) => `${presentation(type, r)} ttl=${r.ttl}`).sort();
  const theirs = kdig.filter((r) => r.type === type).map((r) => `${svcbAsKdig32(r.rdata)} ttl=${r.ttl}`).sort();
  assert.ok(theirs.length >= atLeast, `kdig saw ${theirs.length} ${type} records of ${domain}`);
  assert.equal(ours, theirs);
  return entry;
}

const CASES: Array<[domain: string, type: RecordType, atLeast: number]> = [
  ['types.test', 'SOA', 1],
  ['types.test', 'NS', 2],
  ['ptr.types.test', 'PTR', 2],
  ['types.test', 'CAA', 3],
  ['_sip._tcp.types.test', 'SRV', 3],
  ['_none._tcp.types.test', 'SRV', 1],
  ['naptr.types.test', 'NAPTR', 3],
  ['sub.types.test', 'DS', 3],
  ['_443._tcp.types.test', 'TLSA', 3],
  ['types.test', 'HTTPS', 3],
  ['svc.types.test', 'SVCB', 2],
  ['c1.types.test', 'CNAME', 1],
];

for (const [domain, type, atLeast] of CASES) {
  test(`${type} of ${domain}: every record as kdig shows it, TTL included`, async () => {
    await sameAsKdig(domain, type, atLeast);
  });
}

test('a DNSKEY set too large for UDP arrives whole over TCP and matches kdig key by key', async () => {
  const entry = await sameAsKdig('types.test', 'DNSKEY', 8);
  assert.is(entry.transport, 'tcp');
});

test('a TXT record of 40 long strings arrives whole and matches kdig', async () => {
  const entry = await sameAsKdig('longtxt.types.test', 'TXT', 1);
  const [txt] = entry.answers;
  assert.ok(txt !== undefined && 'parts' in txt && txt.parts.length === 40 && txt.value.length === 10000);
});

test('a CNAME chain to an SRV is followed: every link and the SRV at its end, as kdig shows them', async () => {
  const [entry, kdig] = await Promise.all([answered('c1.types.test', 'SRV'), kdigAnswer(knot.address, knot.port, 'c1.types.test', 'SRV')]);
  const links = kdig.filter((r) => r.type === 'CNAME').map((r) => ({ name: r.owner.slice(0, -1), target: r.rdata.slice(0, -1), ttl: r.ttl }));
  assert.is(links.length, 3);
  assert.equal(entry.cnames, links);
  assert.equal(entry.answers.map((r) => presentation('SRV', r)), kdig.filter((r) => r.type === 'SRV').map((r) => r.rdata));
});

test('SvcParams come by name, in wire order, unknown keys as key<N> in hex', async () => {
  const entry = await answered('svc.types.test', 'SVCB');
  const one = entry.answers.find((r) => 'priority' in r && r.priority === 1);
  assert.equal(one, {
    priority: 1,
    target: 'svc-target.types.test',
    params: { mandatory: ['alpn', 'port'], alpn: ['dot'], port: 853, key65000: '68656c6c6f', key65001: '' },
    ttl: 300,
  });
});

test('HTTPS: hints as address text, ech in base64, the root target as "."', async () => {
  const entry = await answered('types.test', 'HTTPS');
  const one = entry.answers.find((r) => 'priority' in r && r.priority === 1);
  assert.ok(one !== undefined && 'params' in one);
  assert.is(one.target, '.');
  assert.equal(one.params.ipv6hint, ['2001:db8::1', '2001:db8::2']);
  assert.equal(one.params.ipv4hint, ['192.0.2.1', '192.0.2.2']);
  assert.ok(/^[A-Za-z0-9+/]+=*$/.test(one.params.ech ?? ''));
});

test.run();
