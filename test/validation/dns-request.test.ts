import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { requestValidators } from '../../src/tools/registry';
import type { Validate } from '../../src/validation/validator';

const v = requestValidators(['r1', 'r2']) as Record<'ping' | 'dns', Validate<any>>;

function errorsOf(body: Record<string, unknown>) {
  const r = v.dns(body);
  assert.not.ok(r.ok, `expected ${JSON.stringify(body)} to be refused`);
  return r.ok ? [] : r.errors;
}

test('defaults ask all four types with a 2000 ms timeout, no DO bit, and leave resolvers unset', () => {
  assert.equal(v.dns({ domain: 'example.test' }), {
    ok: true,
    value: { domain: 'example.test', types: ['A', 'AAAA', 'MX', 'TXT'], timeoutMs: 2000, dnssec: false },
  });
});

test('trailing dot is dropped and case folded', () => {
  const r = v.dns({ domain: 'Example.TEST.' });
  assert.ok(r.ok && r.value.domain === 'example.test');
});

test('an IDN is converted to its ASCII form', () => {
  const r = v.dns({ domain: 'bücher.example' });
  assert.ok(r.ok && r.value.domain === 'xn--bcher-kva.example');
});

test('underscore labels are valid domain names', () => {
  assert.ok(v.dns({ domain: '_dmarc.example.test' }).ok);
});

test('an IPv4 literal asks PTR of its in-addr.arpa name, and only that', () => {
  assert.equal(v.dns({ domain: '192.0.2.10' }), {
    ok: true,
    value: { domain: '192.0.2.10', reverseName: '10.2.0.192.in-addr.arpa', types: ['PTR'], timeoutMs: 2000, dnssec: false },
  });
});

test('an IPv6 literal, bracketed and in capitals, is shown bare and lowercase, and asks its ip6.arpa name', () => {
  const r = v.dns({ domain: '[2001:DB8::1]' });
  assert.ok(r.ok);
  assert.is(r.value.domain, '2001:db8::1');
  assert.is(r.value.reverseName, `1.0.0.0.${'0.'.repeat(20)}8.b.d.0.1.0.0.2.ip6.arpa`);
  assert.equal(r.value.types, ['PTR']);
});

test('an IP literal with types asks those types of the reverse name', () => {
  const r = v.dns({ domain: '127.0.0.2', types: ['PTR', 'TXT'] });
  assert.ok(r.ok);
  assert.equal([r.value.reverseName, r.value.types], ['2.0.0.127.in-addr.arpa', ['PTR', 'TXT']]);
});

test('a name carries no reverse name', () => {
  const r = v.dns({ domain: 'example.test' });
  assert.ok(r.ok && !('reverseName' in r.value));
});

test('an IPv4-mapped IPv6 literal asks the in-addr.arpa name of its IPv4 address', () => {
  const r = v.dns({ domain: '::ffff:192.0.2.1' });
  assert.ok(r.ok && r.value.reverseName === '1.2.0.192.in-addr.arpa' && r.value.domain === '::ffff:192.0.2.1');
});

for (const domain of ['0x7f000001', '127.1', 'a..b', 'x'.repeat(64) + '.test', 'a b.test', 'http://a.test', '']) {
  test(`domain ${JSON.stringify(domain)} is refused at /domain`, () => {
    assert.is(errorsOf({ domain })[0]?.pointer, '/domain');
  });
}

test('a 253-character name is accepted and a 254-character one refused', () => {
  const long = ('a'.repeat(62) + '.').repeat(4) + 'ab'; // 4*63 + 2 = 254
  assert.is(long.length, 254);
  assert.is(errorsOf({ domain: long })[0]?.pointer, '/domain');
  const fits = ('a'.repeat(62) + '.').repeat(4) + 'a'; // 253
  assert.is(fits.length, 253);
  assert.ok(v.dns({ domain: fits }).ok);
});

test('an unknown record type is refused at /types/<i>', () => {
  assert.is(errorsOf({ domain: 'a.test', types: ['A', 'ANY'] })[0]?.pointer, '/types/1');
});

test('a type name is exact: lower case is refused', () => {
  assert.is(errorsOf({ domain: 'a.test', types: ['soa'] })[0]?.pointer, '/types/0');
});

test('every offered type is accepted, eight at once', () => {
  assert.ok(v.dns({ domain: 'a.test', types: ['CNAME', 'NS', 'SOA', 'CAA', 'SRV', 'PTR', 'HTTPS', 'SVCB'] }).ok);
  assert.ok(v.dns({ domain: 'a.test', types: ['DS', 'DNSKEY', 'TLSA', 'NAPTR', 'A', 'AAAA', 'MX', 'TXT'] }).ok);
});

test('nine types are refused', () => {
  assert.is(errorsOf({ domain: 'a.test', types: ['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS', 'SOA', 'CAA', 'SRV'] })[0]?.pointer, '/types');
});

test('duplicate types are refused', () => {
  assert.is(errorsOf({ domain: 'a.test', types: ['A', 'A'] })[0]?.pointer, '/types');
});

test('an empty types array is refused', () => {
  assert.is(errorsOf({ domain: 'a.test', types: [] })[0]?.pointer, '/types');
});

test('an unknown resolver id is refused at /resolvers/<i>', () => {
  const [e] = errorsOf({ domain: 'a.test', resolvers: ['r1', 'nope'] });
  assert.is(e?.pointer, '/resolvers/1');
  assert.match(e?.message ?? '', '"r1", "r2"');
});

test('known resolver ids are accepted', () => {
  assert.ok(v.dns({ domain: 'a.test', resolvers: ['r2'] }).ok);
});

test('timeoutMs out of bounds is refused', () => {
  assert.is(errorsOf({ domain: 'a.test', timeoutMs: 50 })[0]?.pointer, '/timeoutMs');
  assert.is(errorsOf({ domain: 'a.test', timeoutMs: 5001 })[0]?.pointer, '/timeoutMs');
});

test.run();
