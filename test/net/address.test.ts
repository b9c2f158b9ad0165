import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isIPv4 } from 'node:net';
import { addressOf, parseAddress } from '../../src/net/address';
import { parseIp } from '../../src/net/ip';
import { randomStrings } from '../support/random';

test('an IPv4 literal is its family, its four bytes and its dotted text', () => {
  assert.equal(parseAddress('198.18.0.1'), { family: 4, bytes: Uint8Array.from([198, 18, 0, 1]), text: '198.18.0.1' });
});

test('an IPv6 literal is its sixteen bytes and its RFC 5952 text, whatever its spelling', () => {
  for (const spelling of ['FD00:0:0:0:0:0:0:1', 'fd00::1', '[fd00::0:1]', 'fd00:0000::0001']) {
    const address = parseAddress(spelling);
    assert.is(address?.family, 6, spelling);
    assert.is(address?.text, 'fd00::1', spelling);
    assert.equal(Array.from(address?.bytes ?? []), [0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], spelling);
  }
});

test('IPv4-mapped IPv6 written with its dotted IPv4 is that IPv4 address', () => {
  assert.equal(parseAddress('::ffff:198.18.0.1'), parseAddress('198.18.0.1'));
  assert.equal(parseAddress('[::FFFF:198.18.0.1]'), parseAddress('198.18.0.1'));
});

test('IPv4-mapped IPv6 written in hex stays IPv6, shown with its dotted IPv4', () => {
  const address = parseAddress('::ffff:c612:1');
  assert.is(address?.family, 6);
  assert.is(address?.text, '::ffff:198.18.0.1');
});

test('every dotted quad reads as its four bytes, and the text is kept as it was given', () => {
  for (const text of ['0.0.0.0', '255.255.255.255', '1.22.233.4', '198.18.0.100']) {
    assert.equal(parseAddress(text), { family: 4, bytes: Uint8Array.from(text.split('.').map(Number)), text }, text);
  }
});

test('IPv4 with leading zeros, too many or too few octets, or octets past 255 is no address', () => {
  for (const text of ['01.2.3.4', '1.2.3.04', '1.2.3.4.5', '1.2.3', '256.1.1.1', '1.2.3.1000', '1..2.3', '.1.2.3', '1.2.3.', '1.2.3.4 ', '1.2.3.a']) {
    assert.is(parseAddress(text), null, text);
  }
});

test('on random text of digits and dots, an IPv4 value exists exactly where node:net sees IPv4, with the same bytes', () => {
  // Near-quads (four runs of up to four digits) hit the edges: leading zeros, 256, empty octets.
  const runs = randomStrings(32, 40_000, '0123456789', 4);
  const quads = Array.from({ length: 10_000 }, (_, i) => runs.slice(4 * i, 4 * i + 4).join('.'));
  const texts = [...randomStrings(30, 20_000, '0123456789.', 16), ...quads];
  for (const text of texts) {
    const address = parseAddress(text);
    assert.is(address !== null, isIPv4(text), JSON.stringify(text));
    if (address !== null) assert.equal(Array.from(address.bytes), Array.from(parseIp(text)?.bytes ?? []), text);
  }
});

test('text that is no IP literal has no value: names, zone ids, bracketed IPv4, ports', () => {
  for (const text of ['a.test', 'fe80::1%lo', '[198.18.0.1]', '198.18.0.1:80', '', '1.2.3', '::ffff:1.2.3.256']) {
    assert.is(parseAddress(text), null, text);
  }
});

test('a value from bytes in hand has the text parsing it would give', () => {
  assert.equal(addressOf(6, Uint8Array.from([0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7])), parseAddress('fd00::7'));
  assert.equal(addressOf(4, Uint8Array.from([127, 0, 0, 1])), parseAddress('127.0.0.1'));
});

test('bytes of the wrong length for the family are refused', () => {
  assert.throws(() => addressOf(4, new Uint8Array(16)), /4 bytes/);
  assert.throws(() => addressOf(6, new Uint8Array(4)), /16 bytes/);
});

test.run();
