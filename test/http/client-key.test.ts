import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clientAddress, clientKey, MAX_FORWARDED_LENGTH, parseForwardedEntry, UNKNOWN_CLIENT } from '../../src/http/client-key';
import { isCanonicalIPv4, normaliseIp, parseCidrList, type Cidr } from '../../src/net/ip';
import { randomStrings } from '../support/random';

function cidrs(text: string): Cidr[] {
  const parsed = parseCidrList(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

// uWebSockets.js reports IPv4 peers in full IPv4-mapped IPv6 form.
const PROXY_PEER = '0000:0000:0000:0000:0000:ffff:0a00:0001'; // 10.0.0.1
const TRUSTED = cidrs('10.0.0.0/8, fd00::/8');

test('an IPv4 peer reported as mapped IPv6 is normalised to IPv4', () => {
  assert.is(clientAddress('0000:0000:0000:0000:0000:ffff:7f00:0001', undefined, []), '127.0.0.1');
});

test('an IPv6 peer is normalised to RFC 5952 text', () => {
  assert.is(clientAddress('2001:0db8:0000:0000:0000:0000:0000:0001', undefined, []), '2001:db8::1');
});

test('X-Forwarded-For from an untrusted peer is ignored', () => {
  assert.is(clientAddress('0000:0000:0000:0000:0000:ffff:c633:6407', '203.0.113.9', TRUSTED), '198.51.100.7');
});

test('X-Forwarded-For is ignored when no proxy is trusted', () => {
  assert.is(clientAddress(PROXY_PEER, '203.0.113.9', []), '10.0.0.1');
});

test('a trusted peer\'s X-Forwarded-For names the client', () => {
  assert.is(clientAddress(PROXY_PEER, '203.0.113.9', TRUSTED), '203.0.113.9');
});

test('the right-most untrusted entry is the client, not a spoofed one further left', () => {
  assert.is(clientAddress(PROXY_PEER, '1.1.1.1, 203.0.113.9, 10.0.0.2, 10.0.0.3', TRUSTED), '203.0.113.9');
});

test('when every hop is trusted the left-most one is the client', () => {
  assert.is(clientAddress(PROXY_PEER, '10.1.1.1, 10.0.0.2', TRUSTED), '10.1.1.1');
});

test('a trusted peer without X-Forwarded-For, or with an empty one, is the client', () => {
  assert.is(clientAddress(PROXY_PEER, undefined, TRUSTED), '10.0.0.1');
  assert.is(clientAddress(PROXY_PEER, '  ', TRUSTED), '10.0.0.1');
});

test('garbage right of the peer stops the walk at the peer', () => {
  for (const xff of ['unknown', 'not an address', '1.2.3.4, garbage', '<script>', '1.2.3.4,', '999.1.1.1', 'example.test']) {
    assert.is(clientAddress(PROXY_PEER, xff, TRUSTED), '10.0.0.1', xff);
  }
});

test('garbage further left stops the walk at the last good hop', () => {
  assert.is(clientAddress(PROXY_PEER, '203.0.113.9, garbage, 10.0.0.2', TRUSTED), '10.0.0.2');
  assert.is(clientAddress(PROXY_PEER, 'garbage, 198.51.100.1, 10.0.0.2', TRUSTED), '198.51.100.1');
});

test('IPv6 hops in bare, bracketed and bracketed-with-port form are understood', () => {
  const peer = 'fd00::1';
  assert.is(clientAddress(peer, '2001:db8::9', TRUSTED), '2001:db8::9');
  assert.is(clientAddress(peer, '[2001:DB8::9]', TRUSTED), '2001:db8::9');
  assert.is(clientAddress(peer, '[2001:db8::9]:4711, [fd00::2]:80', TRUSTED), '2001:db8::9');
});

test('IPv4 hops with a port and IPv4-mapped hops are read as IPv4', () => {
  assert.is(clientAddress(PROXY_PEER, '203.0.113.9:51234', TRUSTED), '203.0.113.9');
  assert.is(clientAddress(PROXY_PEER, '::ffff:203.0.113.9', TRUSTED), '203.0.113.9');
});

test('a mapped IPv6 hop inside a trusted IPv4 range is skipped as trusted', () => {
  assert.is(clientAddress(PROXY_PEER, '203.0.113.9, ::ffff:10.0.0.5', TRUSTED), '203.0.113.9');
});

test('many trusted hops are walked through', () => {
  const hops = Array.from({ length: 50 }, (_, i) => `10.0.${i}.1`);
  assert.is(clientAddress(PROXY_PEER, ['203.0.113.9', ...hops].join(','), TRUSTED), '203.0.113.9');
});

test('an over-long header is read only at its right-hand end, never from a cut-off fragment', () => {
  const padding = Array.from({ length: 400 }, () => '10.9.9.9').join(',');
  assert.ok(padding.length > MAX_FORWARDED_LENGTH);
  // The spoofed client at the far left lies beyond the limit: the walk ends at the last trusted hop read.
  assert.is(clientAddress(PROXY_PEER, `203.0.113.9,${padding}`, TRUSTED), '10.9.9.9');
  // A single giant entry is not an address at all.
  assert.is(clientAddress(PROXY_PEER, '1'.repeat(10_000), TRUSTED), '10.0.0.1');
});

test('a peer that is not an IP literal is the unknown client and its X-Forwarded-For is ignored', () => {
  assert.is(clientAddress('', '203.0.113.9', cidrs('0.0.0.0/0')), UNKNOWN_CLIENT);
});

test('forwarded entries in unsupported forms are refused', () => {
  for (const entry of ['[1.2.3.4]', '[2001:db8::1', '[2001:db8::1]:', '[2001:db8::1]:port', '1.2.3.4:', '1.2.3.4:123456', '2001:db8::1:', '_hidden', '']) {
    assert.is(parseForwardedEntry(entry), null, entry);
  }
});

const XFF_ALPHABET = '0123456789abcdefABCDEF.:,[] %x';

test('random X-Forwarded-For text from an untrusted peer never changes the client', () => {
  for (const xff of randomStrings(1, 5_000, XFF_ALPHABET, 80)) {
    assert.is(clientAddress('198.51.100.7', xff, TRUSTED), '198.51.100.7', JSON.stringify(xff));
  }
});

test('random X-Forwarded-For text from a trusted peer never throws and always yields a canonical address', () => {
  for (const xff of randomStrings(2, 5_000, XFF_ALPHABET, 80)) {
    const address = clientAddress(PROXY_PEER, xff, TRUSTED);
    assert.is(normaliseIp(address), address, JSON.stringify(xff));
  }
});

test('an IPv4 client is keyed by its address', () => {
  assert.is(clientKey('203.0.113.9'), '203.0.113.9');
});

test('an IPv6 client is keyed by its /64', () => {
  assert.is(clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), '2001:db8:1:2::/64');
  assert.is(clientKey('2001:db8:1:2::1'), clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
  assert.is.not(clientKey('2001:db8:1:2::1'), clientKey('2001:db8:1:3::1'));
});

test('an IPv4-mapped client is keyed as IPv4', () => {
  assert.is(clientKey('::ffff:203.0.113.9'), '203.0.113.9');
  assert.is(clientKey('0000:0000:0000:0000:0000:ffff:cb00:7109'), '203.0.113.9');
});

test('a key for text that is no address is that text', () => {
  assert.is(clientKey(UNKNOWN_CLIENT), UNKNOWN_CLIENT);
});

test('the canonical IPv4 check agrees with node:net on canonical text and refuses every other form', async () => {
  const { isIPv4 } = await import('node:net');
  for (const text of ['0.0.0.0', '255.255.255.255', '1.2.3.4', '10.0.0.1', '203.0.113.9', '100.64.0.0']) assert.ok(isCanonicalIPv4(text), text);
  for (const text of ['256.0.0.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.04', '1..3.4', '.1.2.3', '1.2.3.', '1.2.3.4 ', ' 1.2.3.4', '1.2.3.a', '1000.2.3.4', '', '::1', '::ffff:1.2.3.4']) {
    assert.not.ok(isCanonicalIPv4(text), text);
  }
  for (let i = 0; i < 2000; i++) {
    const text = [0, 1, 2, 3].map(() => String(Math.floor(Math.random() * 300))).join('.');
    assert.is(isCanonicalIPv4(text), isIPv4(text), text);
  }
});

test.run();
