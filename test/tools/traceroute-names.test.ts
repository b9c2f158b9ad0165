import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressOf, parseAddress, type Address } from '../../src/net/address';
import { reverseDomain } from '../../src/net/reverse-name';
import type { HopDetails } from '../../src/tools/hop-details';
import { HopNames } from '../../src/tools/traceroute/hop-names';
import { SENDER, type TraceHop } from '../../src/tools/traceroute/types';

// A hop as HopAssembler makes it: the sender's text, and its value under SENDER.
const hop = (ttl: number, address?: string): TraceHop => ({
  ttl,
  probes: address === undefined ? [{ status: 'timeout' }] : [{ address, rttMs: 1, icmp: { type: 11, code: 0, name: 'ttl-exceeded' }, [SENDER]: ip(address) }],
});

function ip(text: string): Address {
  const address = parseAddress(text);
  if (address === null) throw new Error(`${text} is no address`);
  return address;
}

test('reverse names, from the bytes: IPv4 under in-addr.arpa, IPv6 nibble by nibble under ip6.arpa, a mapped IPv6 none', () => {
  assert.is(reverseDomain(ip('198.18.0.1')), '1.0.18.198.in-addr.arpa');
  assert.is(reverseDomain(ip('2001:db8::1')), `1.${'0.'.repeat(23)}8.b.d.0.1.0.0.2.ip6.arpa`);
  assert.is(reverseDomain(ip('::1')), `1.${'0.'.repeat(31)}ip6.arpa`);
  assert.is(reverseDomain(ip('fd00:1:2:3:4:5:6:7')), '7.0.0.0.6.0.0.0.5.0.0.0.4.0.0.0.3.0.0.0.2.0.0.0.1.0.0.0.0.0.d.f.ip6.arpa');
  assert.is(reverseDomain(addressOf(6, Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 1]))), null);
  // What has no value has no reverse name: no text reaches it.
  for (const other of ['example.test', 'fe80::1%eth0', '']) assert.is(parseAddress(other), null, other);
});

test('hops are handed on in TTL order, each once its name is in, whatever order the names come in', async () => {
  const answers = new Map<string, (details: HopDetails) => void>();
  const seen: TraceHop[] = [];
  const names = new HopNames((address) => new Promise((resolve) => answers.set(address.text, resolve)), (h) => seen.push(h));
  names.add(hop(1, '198.18.0.1'));
  names.add(hop(2)); // a silent hop: nothing to ask
  names.add(hop(3, '198.18.0.3'));
  answers.get('198.18.0.3')!({ name: 'three.test' });
  await Promise.resolve();
  assert.equal(seen, []);
  answers.get('198.18.0.1')!({});
  const all = await names.withNames([hop(1, '198.18.0.1'), hop(2), hop(3, '198.18.0.3')]);
  assert.equal(seen.map((h) => [h.ttl, h.name]), [[1, undefined], [2, undefined], [3, 'three.test']]);
  assert.equal(all.map((h) => h.name), [undefined, undefined, 'three.test']);
});

test('a lookup that fails leaves its hop without a name and does not hold the others', async () => {
  const seen: number[] = [];
  const bad = '198.18.0.66';
  const names = new HopNames((address) => (address.text === bad ? Promise.reject(new Error('boom')) : Promise.resolve({ name: 'ok.test' })), (h) => seen.push(h.ttl));
  names.add(hop(1, bad));
  names.add(hop(2, '198.18.0.2'));
  const all = await names.withNames([hop(1, bad), hop(2, '198.18.0.2')]);
  assert.equal(seen, [1, 2]);
  assert.equal(all.map((h) => h.name), [undefined, 'ok.test']);
});

test('without lookups hops pass straight through', () => {
  const seen: number[] = [];
  const names = new HopNames(null, (h) => seen.push(h.ttl));
  names.add(hop(1, '198.18.0.1'));
  names.add(hop(2));
  assert.equal(seen, [1, 2]);
});

test.run();
