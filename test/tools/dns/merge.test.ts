import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResolverConfig } from '../../../src/config/types';
import type { DnsRecord, QueryEntry, RecordType, ResolverQueries } from '../../../src/engines/dns';
import { addressRecord } from '../../../src/engines/dns/types';
import { parseAddress, type Address } from '../../../src/net/address';
import { isConsistent, outcomesOf } from '../../../src/tools/dns/merge';

// The consistency rule on its own: each resolver's records for a type, compared as a set of data.
const test = suite('dns consistency');

function resolver(id: string): ResolverConfig {
  return { id, address: '127.0.0.1', port: 53, family: 4 };
}

function answered(answers: DnsRecord[], rcode = 'NOERROR'): QueryEntry {
  return { rcode, flags: ['qr', 'rd', 'ra'], rttMs: 1, transport: 'udp', answers };
}

function results(...perResolver: Array<Partial<Record<RecordType, QueryEntry>>>): ResolverQueries[] {
  return perResolver.map((queries, i) => ({ resolver: resolver(`r${i}`), queries }));
}

const a = (address: string, ttl = 300): DnsRecord => addressRecord(parseAddress(address) as Address, ttl);
const mx = (priority: number, exchange: string): DnsRecord => ({ priority, exchange, ttl: 300 });

test('the same records in another order, repeated, in other letter case and with other TTLs are consistent', () => {
  const one = { A: answered([a('192.0.2.1'), a('192.0.2.2')]), MX: answered([mx(10, 'Mail.example.test')]) };
  const two = { A: answered([a('192.0.2.2', 60), a('192.0.2.1'), a('192.0.2.2')]), MX: answered([mx(10, 'mail.EXAMPLE.test')]) };
  assert.is(isConsistent(results(one, two), ['A', 'MX']), true);
});

test('a resolver with fewer records for a type is inconsistent', () => {
  assert.is(isConsistent(results({ A: answered([a('192.0.2.1'), a('192.0.2.2')]) }, { A: answered([a('192.0.2.1')]) }), ['A']), false);
});

test('as many records but other data is inconsistent', () => {
  assert.is(isConsistent(results({ MX: answered([mx(10, 'a.test'), mx(20, 'b.test')]) }, { MX: answered([mx(10, 'a.test'), mx(10, 'b.test')]) }), ['MX']), false);
});

test('NXDOMAIN disagrees with no data and with data, agrees with NXDOMAIN; SERVFAIL and failures say nothing', () => {
  const nx = answered([], 'NXDOMAIN');
  assert.is(isConsistent(results({ A: nx }, { A: answered([]) }), ['A']), false);
  assert.is(isConsistent(results({ A: nx }, { A: answered([], 'NXDOMAIN') }), ['A']), true);
  assert.is(isConsistent(results({ A: nx }, { A: answered([a('192.0.2.1')]) }), ['A']), false);
  assert.is(isConsistent(results({ A: answered([], 'SERVFAIL') }, { A: { error: 'timeout' } }, { A: answered([a('192.0.2.1')]) }), ['A']), true);
});

test('TXT records compare by their parts, not by the joined value', () => {
  const txt = (...parts: string[]): DnsRecord => ({ value: parts.join(''), parts, ttl: 300 });
  assert.is(isConsistent(results({ TXT: answered([txt('ab', 'c')]) }, { TXT: answered([txt('ab', 'c')]) }), ['TXT']), true);
  assert.is(isConsistent(results({ TXT: answered([txt('ab', 'c')]) }, { TXT: answered([txt('a', 'bc')]) }), ['TXT']), false);
});

test('per type: records if any answer has them, nxdomain only if every answer says so, upstream-failed if none answered', () => {
  const nx = answered([], 'NXDOMAIN');
  const refused = answered([], 'REFUSED');
  const r = results({ A: nx, MX: answered([]), TXT: refused }, { A: answered([a('192.0.2.1')]), MX: nx, TXT: { error: 'timeout' } }, { A: { error: 'timeout' }, MX: nx, TXT: refused });
  assert.equal(outcomesOf(r, ['A', 'MX', 'TXT']), { A: 'records', MX: 'no-data', TXT: 'upstream-failed' });
  assert.equal(outcomesOf(results({ AAAA: nx }, { AAAA: answered([], 'SERVFAIL') }), ['AAAA']), { AAAA: 'nxdomain' });
});

test.run();
