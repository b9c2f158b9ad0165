import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResolverConfig } from '../../../src/config/types';
import type { CnameLink, DnsRecord, QueryEntry, RecordType, ResolverQueries } from '../../../src/engines/dns';
import { isConsistent, mergeRecords } from '../../../src/tools/dns/merge';

// The union and the consistency rule for the newer types: names in any field compare without case, the
// TTL never counts, other fields always do.

function answered(answers: DnsRecord[], cnames?: CnameLink[]): QueryEntry {
  const e = { rcode: 'NOERROR', flags: [], rttMs: 1, transport: 'udp' as const, answers };
  return cnames ? { ...e, cnames } : e;
}

function results(...perResolver: Array<Partial<Record<RecordType, QueryEntry>>>): ResolverQueries[] {
  const resolver = (id: string): ResolverConfig => ({ id, address: '127.0.0.1', port: 53, family: 4 });
  return perResolver.map((queries, i) => ({ resolver: resolver(`r${i}`), queries }));
}

const srv = (target: string, port = 443, ttl = 300): DnsRecord => ({ priority: 1, weight: 2, port, target, ttl });
const soa = (mname: string, serial: number): DnsRecord => ({ mname, rname: 'hostmaster.example.test', serial, refresh: 1, retry: 2, expire: 3, minimum: 4, ttl: 300 });

test('SRV records differing only in the target name\'s case and the TTL are one record, with the smallest TTL', () => {
  const merged = mergeRecords(results({ SRV: answered([srv('Host.Example.test')]) }, { SRV: answered([srv('host.example.test', 443, 60)]) }), ['SRV']);
  assert.equal(merged.SRV, [{ priority: 1, weight: 2, port: 443, target: 'Host.Example.test', ttl: 60 }]);
});

test('SRV records differing in the port are two records, and inconsistent across resolvers', () => {
  const r = results({ SRV: answered([srv('host.example.test', 443)]) }, { SRV: answered([srv('host.example.test', 8443)]) });
  assert.is(mergeRecords(r, ['SRV']).SRV?.length, 2);
  assert.is(isConsistent(r, ['SRV']), false);
});

test('SOA serials that differ make the resolvers inconsistent; the mname\'s case does not', () => {
  assert.is(isConsistent(results({ SOA: answered([soa('NS.example.test', 1)]) }, { SOA: answered([soa('ns.example.test', 1)]) }), ['SOA']), true);
  assert.is(isConsistent(results({ SOA: answered([soa('ns.example.test', 1)]) }, { SOA: answered([soa('ns.example.test', 2)]) }), ['SOA']), false);
});

test('a CNAME asked for and the same CNAME followed by another type are one entry of records.CNAME', () => {
  const link = { name: 'www.example.test', target: 'host.example.test', ttl: 300 };
  const merged = mergeRecords(results({ CNAME: answered([link]), A: answered([], [{ ...link, ttl: 30 }]) }), ['CNAME', 'A']);
  assert.equal(merged.CNAME, [{ ...link, ttl: 30 }]);
});

test('a CNAME asked for that does not exist still shows records.CNAME, empty', () => {
  assert.equal(mergeRecords(results({ CNAME: answered([]) }), ['CNAME']).CNAME, []);
});

test.run();
