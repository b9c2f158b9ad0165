import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  cidrContains,
  formatIp,
  normaliseIp,
  parseCidr,
  parseCidrList,
  parseIp,
  unmapIPv4,
  type Cidr,
} from '../../src/net/ip';
import { formatCidr } from '../support/cidr';

function cidr(text: string): Cidr {
  const parsed = parseCidr(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

test('IPv4 literals parse to four bytes', () => {
  assert.equal(parseIp('192.0.2.10'), { family: 4, bytes: Uint8Array.from([192, 0, 2, 10]) });
});

test('IPv6 literals parse to sixteen bytes in network order', () => {
  const parsed = parseIp('2001:db8::ff00:42');
  assert.is(parsed?.family, 6);
  assert.equal(Array.from(parsed?.bytes ?? []), [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0, 0, 0x42]);
});

test('every IPv6 spelling of one address normalises to the same RFC 5952 text', () => {
  for (const text of [
    '2001:db8:0:0:0:0:0:1',
    '2001:0DB8:0000:0000:0000:0000:0000:0001',
    '2001:db8::1',
    '2001:DB8::0:1',
    '[2001:db8::1]',
  ]) {
    assert.is(normaliseIp(text), '2001:db8::1', text);
  }
});

test('RFC 5952 compresses the longest zero run, the first on a tie, and never a single zero group', () => {
  assert.is(normaliseIp('2001:db8:0:0:1:0:0:1'), '2001:db8::1:0:0:1');
  assert.is(normaliseIp('2001:0:0:1:0:0:0:1'), '2001:0:0:1::1');
  assert.is(normaliseIp('2001:db8:0:1:1:1:1:1'), '2001:db8:0:1:1:1:1:1');
  assert.is(normaliseIp('0:0:0:0:0:0:0:0'), '::');
  assert.is(normaliseIp('0:0:0:0:0:0:0:1'), '::1');
  assert.is(normaliseIp('1:0:0:0:0:0:0:0'), '1::');
});

test('IPv4-mapped IPv6 in every notation uWebSockets.js or a user may write normalises to IPv4', () => {
  for (const text of [
    '::ffff:127.0.0.1',
    '::FFFF:127.0.0.1',
    '::ffff:7f00:1',
    '0000:0000:0000:0000:0000:ffff:7f00:0001',
    '0:0:0:0:0:ffff:127.0.0.1',
    '[::ffff:127.0.0.1]',
  ]) {
    assert.is(normaliseIp(text), '127.0.0.1', text);
  }
});

test('a mapped address stays IPv6 when parsed and prints in mixed notation', () => {
  const parsed = parseIp('::ffff:102:304');
  assert.ok(parsed !== null && parsed.family === 6 && unmapIPv4(parsed).family === 4);
  assert.is(formatIp(parsed!), '::ffff:1.2.3.4');
});

test('IPv6 text is RFC 5952 as inet_ntop writes it: longest zero run (the first on a tie), no single group, lowercase', () => {
  const text = (hex: string) => formatIp({ family: 6, bytes: Uint8Array.from(Buffer.from(hex, 'hex')) });
  assert.is(text('20010db8000000000000000000000001'), '2001:db8::1');
  assert.is(text('20010db8000000010000000000000001'), '2001:db8:0:1::1');
  assert.is(text('20010db8000000000001000000000001'), '2001:db8::1:0:0:1');
  assert.is(text('20010db80000000100010001000100ab'), '2001:db8:0:1:1:1:1:ab');
  assert.is(text('00000000000000000000000000000000'), '::');
  assert.is(text('00000000000000000000000000000001'), '::1');
  assert.is(text('00010000000000000000000000000000'), '1::');
  assert.is(text('FE800000000000000000000000ABCDEF'.toLowerCase()), 'fe80::ab:cdef');
  // The two dotted tails inet_ntop writes: mapped, and the deprecated IPv4-compatible form.
  assert.is(text('00000000000000000000ffffc0000201'), '::ffff:192.0.2.1');
  assert.is(text('000000000000000000000000c0000201'), '::192.0.2.1');
  assert.is(text('0000000000000000000000000000ffff'), '::ffff');
});

test('an embedded IPv4 after other groups is read as the last 32 bits', () => {
  assert.is(normaliseIp('64:ff9b::192.0.2.33'), '64:ff9b::c000:221');
  assert.is(normaliseIp('1:2:3:4:5:6:1.2.3.4'), '1:2:3:4:5:6:102:304');
});

test('text that is not an IP literal parses to null', () => {
  for (const text of [
    '',
    'localhost',
    'example.test',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4',
    ' 1.2.3.4',
    '1.2.3.4 ',
    '[1.2.3.4]',
    '1.2.3.4:80',
    '[::1]:80',
    '::1::',
    '1:2:3:4:5:6:7:8:9',
    '12345::',
    'fe80::1%eth0',
    '[::1',
    '::1]',
    'g::1',
    '::ffff:1.2.3.256',
    '1'.repeat(100),
  ]) {
    assert.is(parseIp(text), null, JSON.stringify(text));
  }
});

test('a CIDR prefix contains exactly the addresses that share its leading bits', () => {
  const net = cidr('10.20.0.0/14');
  assert.ok(cidrContains(net, '10.20.0.0'));
  assert.ok(cidrContains(net, '10.23.255.255'));
  assert.not.ok(cidrContains(net, '10.24.0.0'));
  assert.not.ok(cidrContains(net, '10.19.255.255'));
});

test('an IPv6 CIDR prefix matches across a byte boundary', () => {
  const net = cidr('2001:db8:8000::/33');
  assert.ok(cidrContains(net, '2001:db8:8000::1'));
  assert.ok(cidrContains(net, '2001:db8:ffff:ffff::'));
  assert.not.ok(cidrContains(net, '2001:db8:7fff::1'));
});

test('an IPv4 prefix matches IPv4-mapped IPv6 addresses, an IPv6 prefix never matches IPv4', () => {
  assert.ok(cidrContains(cidr('127.0.0.0/8'), '::ffff:7f00:1'));
  assert.not.ok(cidrContains(cidr('::/0'), '127.0.0.1'));
  assert.not.ok(cidrContains(cidr('0.0.0.0/0'), '2001:db8::1'));
});

test('a mapped CIDR prefix of length 96 or more is read as the IPv4 prefix it denotes', () => {
  const net = cidr('::ffff:10.0.0.0/104');
  assert.is(formatCidr(net), '10.0.0.0/8');
  assert.ok(cidrContains(net, '10.1.2.3'));
});

test('a bare address is a single-host prefix', () => {
  const host = cidr('198.18.0.1');
  assert.is(host.prefix, 32);
  assert.ok(cidrContains(host, '198.18.0.1'));
  assert.not.ok(cidrContains(host, '198.18.0.2'));
  assert.is(cidr('[fd00::1]').prefix, 128);
});

test('prefix 0 contains every address of its family', () => {
  assert.ok(cidrContains(cidr('0.0.0.0/0'), '203.0.113.9'));
  assert.ok(cidrContains(cidr('::/0'), 'ff02::1'));
});

test('cidrContains of a non-address is false', () => {
  assert.not.ok(cidrContains(cidr('0.0.0.0/0'), 'not-an-address'));
});

test('malformed CIDR text fails with a code', () => {
  const cases: Array<[string, string]> = [
    ['10.0.0.0/', 'cidr-malformed'],
    ['10.0.0.0/x', 'cidr-malformed'],
    ['10.0.0.0/-1', 'cidr-malformed'],
    ['10.0.0.0/8/8', 'cidr-malformed'],
    ['example.test/8', 'cidr-malformed'],
    ['10.0.0.0/33', 'cidr-prefix-out-of-range'],
    ['::/129', 'cidr-prefix-out-of-range'],
    ['10.1.0.0/8', 'cidr-host-bits-set'],
    ['2001:db8::1/64', 'cidr-host-bits-set'],
  ];
  for (const [text, code] of cases) {
    const parsed = parseCidr(text);
    assert.is(parsed.ok ? 'ok' : parsed.code, code, text);
  }
});

test('a host-bits error suggests the prefix that was probably meant', () => {
  const parsed = parseCidr('10.1.0.0/8');
  assert.ok(!parsed.ok && parsed.message.includes('10.0.0.0/8'));
});

test('a CIDR list parses comma-separated items with spaces, and empty text is an empty list', () => {
  const parsed = parseCidrList(' 10.0.0.0/8 , fd00::/8,127.0.0.1 ');
  assert.ok(parsed.ok);
  if (parsed.ok) assert.equal(parsed.value.map(formatCidr), ['10.0.0.0/8', 'fd00::/8', '127.0.0.1/32']);
  const empty = parseCidrList('');
  assert.ok(empty.ok && empty.value.length === 0);
});

test('a CIDR list with one bad item fails with that item\'s code', () => {
  const parsed = parseCidrList('10.0.0.0/8,,fd00::/8');
  assert.is(parsed.ok ? 'ok' : parsed.code, 'cidr-malformed');
});

test.run();
