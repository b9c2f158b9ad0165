import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatIp, parseIp, type IpAddress } from '../../src/net/ip';
import { addressOf, type Address } from '../../src/net/address';
import { ALWAYS_REFUSED, createTargetCheck, forbiddenRange, INVALID_ADDRESS } from '../../src/policy/target-policy';
import { randomStrings } from '../support/random';

// These are strings in a table: nothing here is ever contacted.

const REFUSED: Array<[address: string, range: string]> = [
  // IPv4 special-purpose registry
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'this-network'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.254', 'cgnat'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.8', 'ietf-protocol'],
  ['192.0.0.170', 'ietf-protocol'],
  ['192.0.2.1', 'documentation'],
  ['192.88.99.1', '6to4-relay-anycast'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.200', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  // IPv6 special-purpose registry, in several spellings
  ['::', 'unspecified'],
  ['0:0:0:0:0:0:0:0', 'unspecified'],
  ['::1', 'loopback'],
  ['0000:0000:0000:0000:0000:0000:0000:0001', 'loopback'],
  ['[::1]', 'loopback'],
  ['::ffff:127.0.0.1', 'ipv4-mapped:loopback'],
  ['::FFFF:7F00:1', 'ipv4-mapped:loopback'],
  ['0000:0000:0000:0000:0000:ffff:0a00:0001', 'ipv4-mapped:private'],
  ['[::ffff:169.254.169.254]', 'ipv4-mapped:link-local'],
  ['::ffff:8.8.8.8', 'ipv4-mapped'],
  ['64:ff9b::127.0.0.1', 'nat64:loopback'],
  ['64:ff9b::a00:1', 'nat64:private'],
  ['64:FF9B:0:0:0:0:C0A8:0101', 'nat64:private'],
  ['64:ff9b:1::10.0.0.1', 'nat64:private'],
  ['64:ff9b:1::8.8.8.8', 'nat64-local'],
  ['::127.0.0.1', 'reserved'],
  ['::2', 'reserved'],
  ['100::1', 'discard-only'],
  ['100:0:0:1::1', 'dummy'],
  ['2001:0:7f00:1::1', 'teredo:loopback'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo:documentation'],
  ['2001:2::1', 'benchmarking'],
  ['2001:10::1', 'orchid'],
  ['2001:20::1', 'orchid'],
  ['2001:30::1', 'drone-remote-id'],
  ['2001:1::4', 'ietf-protocol'],
  ['2001:100::1', 'ietf-protocol'],
  ['2001:db8::1', 'documentation'],
  ['2001:DB8:0:0:0:0:0:1', 'documentation'],
  ['[2001:db8::1]', 'documentation'],
  ['3fff::1', 'documentation'],
  ['2002:c0a8:0101::1', '6to4:private'],
  ['2002:7f00:1::', '6to4:loopback'],
  ['5f00::1', 'segment-routing'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['FD00::1', 'unique-local'],
  ['fe80::1', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['ff05::1:3', 'multicast'],
  ['4000::1', 'reserved'],
  ['e000::1', 'reserved'],
];

const ALLOWED = [
  '8.8.8.8',
  '1.1.1.1',
  '9.9.9.9',
  '93.184.215.14',
  '100.63.255.255', // just below CGNAT
  '100.128.0.0', // just above CGNAT
  '172.15.255.255', // just below 172.16/12
  '172.32.0.0', // just above 172.16/12
  '192.0.0.9', // PCP anycast
  '192.0.0.10', // TURN anycast
  '192.31.196.1', // AS112
  '198.17.255.255', // just below benchmarking
  '198.20.0.0', // just above benchmarking
  '223.255.255.255', // just below multicast
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '[2620:fe::fe]',
  '2001:1::1', // PCP anycast
  '2001:4:112::1', // AS112-v6
  '2a00:1450:4001:80b::200e',
  '64:ff9b::8.8.8.8', // NAT64 of a public address is globally reachable
  '2002:0808:0808::1', // 6to4 of a public address
  '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo with public server and client
];

// An address value as the check receives it; mapped IPv6 kept as IPv6, to see how the check reads it.
const ip = (text: string): Address => {
  const parsed = parseIp(text) as IpAddress;
  return addressOf(parsed.family, parsed.bytes);
};

test('every special-purpose address in the table is refused with its range name', () => {
  assert.ok(REFUSED.length >= 40);
  for (const [address, range] of REFUSED) assert.is(forbiddenRange(address), range, address);
});

test('public addresses are allowed', () => {
  assert.ok(ALLOWED.length >= 10);
  for (const address of ALLOWED) assert.is(forbiddenRange(address), null, address);
});

test('text that is not an IP literal is refused as invalid, never allowed', () => {
  for (const text of ['', 'example.test', '8.8.8.8.', '8.8.8.8:53', '[8.8.8.8]', ' 8.8.8.8', 'fe80::1%eth0', '::g']) {
    assert.is(forbiddenRange(text), INVALID_ADDRESS, JSON.stringify(text));
  }
});

function expanded(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(Buffer.from(bytes.subarray(i, i + 2)).toString('hex').toUpperCase());
  return groups.join(':');
}

test('the verdict does not depend on how an IPv6 address is spelled', () => {
  // Random addresses under the prefixes with special meaning, so every rule is exercised.
  const prefixes = ['::', '::ffff:0:0', '64:ff9b::', '64:ff9b:1::', '2001::', '2002::', '2001:db8::', 'fe80::', '2600::'];
  const tails = randomStrings(4, 2_000, '0123456789abcdef', 16);
  tails.forEach((tail, i) => {
    const base = parseIp(prefixes[i % prefixes.length]!)!;
    const bytes = base.bytes.slice();
    const tailBytes = Buffer.from(tail.padStart(16, '0'), 'hex');
    // Vary the last 32 bits (mapped, NAT64, Teredo client) and sometimes bits 32..63 (Teredo server).
    bytes.set(tailBytes.subarray(0, 4), 12);
    if (i % 3 === 0) bytes.set(tailBytes.subarray(4, 8), 4);
    const address = { family: 6 as const, bytes };
    const verdict = forbiddenRange(formatIp(address));
    assert.is(forbiddenRange(expanded(bytes)), verdict, expanded(bytes));
    assert.is(forbiddenRange(`[${formatIp(address)}]`), verdict, formatIp(address));
  });
});

test('the default target check refuses special ranges', () => {
  const check = createTargetCheck({ allowPrivateTargets: false });
  assert.is(check(ip('127.0.0.1')), 'loopback');
  assert.is(check(ip('8.8.8.8')), null);
});

test('allowing private targets lets special ranges through, except the always-refused ones, and takes the parsed value', () => {
  const check = createTargetCheck({ allowPrivateTargets: true });
  for (const [address, range] of REFUSED) {
    const always = ALWAYS_REFUSED.has(range.slice(range.lastIndexOf(':') + 1));
    assert.is(check(ip(address)), always ? range : null, address);
  }
});

test('multicast, broadcast and unspecified stay refused when private targets are allowed; loopback is let through', () => {
  const check = createTargetCheck({ allowPrivateTargets: true });
  const expected: Array<[string, string]> = [
    ['224.0.0.1', 'multicast'],
    ['239.1.2.3', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['ff02::1', 'multicast'],
    ['::ffff:224.0.0.1', 'ipv4-mapped:multicast'],
    ['2002:e000:1::1', '6to4:multicast'],
    ['0.1.2.3', 'this-network'],
  ];
  for (const [address, range] of expected) assert.is(check(ip(address)), range, address);
  for (const address of ['127.0.0.1', '::1', '10.1.2.3', 'fe80::1', '100.64.0.1']) assert.is(check(ip(address)), null, address);
});

test.run();
