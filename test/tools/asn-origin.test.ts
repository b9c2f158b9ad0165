import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressOf, parseAddress, type Address } from '../../src/net/address';
import { asnQueryName, covers, parseOriginTxt } from '../../src/tools/asn-origin';

const ZONES = { v4: 'origin.asn.cymru.com', v6: 'origin6.asn.cymru.com' };

function ip(text: string): Address {
  const address = parseAddress(text);
  if (address === null) throw new Error(`${text} is no address`);
  return address;
}

test('an IPv4 address is asked as its octets reversed under the v4 zone', () => {
  assert.is(asnQueryName(ip('1.2.3.4'), ZONES), '4.3.2.1.origin.asn.cymru.com');
  assert.is(asnQueryName(ip('104.16.0.255'), ZONES), '255.0.16.104.origin.asn.cymru.com');
});

test('an IPv6 address is asked as its 32 nibbles reversed under the v6 zone', () => {
  assert.is(asnQueryName(ip('2001:db8::1'), ZONES), `1.${'0.'.repeat(23)}8.b.d.0.1.0.0.2.origin6.asn.cymru.com`);
  assert.is(asnQueryName(ip('fd00:1:2:3:4:5:6:7'), { v4: 'x', v6: 'asn6.test' }), '7.0.0.0.6.0.0.0.5.0.0.0.4.0.0.0.3.0.0.0.2.0.0.0.1.0.0.0.0.0.d.f.asn6.test');
});

test('an IPv6 address with an IPv4 inside has no question', () => {
  assert.is(asnQueryName(addressOf(6, Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 1])), ZONES), null);
});

test("Team Cymru's answer gives the AS number and the prefix", () => {
  assert.equal(parseOriginTxt('13335 | 104.16.0.0/13 | US | arin | 2014-03-28'), { number: 13335, prefix: '104.16.0.0/13' });
  assert.equal(parseOriginTxt('15169 | 2001:4860::/32 | US | arin | 2005-03-14'), { number: 15169, prefix: '2001:4860::/32' });
  assert.equal(parseOriginTxt('64500 | 2001:DB8:0::/48'), { number: 64500, prefix: '2001:db8::/48' });
});

test('of several origin AS numbers the first is taken', () => {
  assert.equal(parseOriginTxt('64500 64501 64502 | 192.0.2.0/24 | ZZ | test | 2026-01-01'), { number: 64500, prefix: '192.0.2.0/24' });
});

test('an answer with only the two first fields is enough, spaces or none around the bars', () => {
  assert.equal(parseOriginTxt('4200000000|198.18.0.0/15'), { number: 4200000000, prefix: '198.18.0.0/15' });
});

test('malformed answers are no answer', () => {
  const bad = [
    '',
    'garbage',
    '13335',
    'NA | 104.16.0.0/13 | US',
    'AS13335 | 104.16.0.0/13',
    '0 | 104.16.0.0/13',
    '4294967296 | 104.16.0.0/13',
    '-5 | 104.16.0.0/13',
    '13335 | 104.16.0.0 | US',
    '13335 | 104.16.0.0/33',
    '13335 | 300.16.0.0/13',
    '13335 | 2001:db8::/129',
    '13335 | <script>/13',
    ' | 104.16.0.0/13',
    '13335 | 104.16.0.1/13',
    '13335 | ::ffff:1.2.3.4:/64',
  ];
  for (const text of bad) assert.is(parseOriginTxt(text), null, text);
});

test('an answer counts only when its prefix holds the address asked about', () => {
  assert.ok(covers({ number: 64500, prefix: '104.16.0.0/13' }, ip('104.23.255.1')));
  assert.not.ok(covers({ number: 64500, prefix: '104.16.0.0/13' }, ip('104.24.0.1')));
  assert.ok(covers({ number: 64500, prefix: '2001:db8::/32' }, ip('2001:db8::1')));
  assert.not.ok(covers({ number: 64500, prefix: '0.0.0.0/0' }, ip('2001:db8::1')));
});

test.run();
