import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RawEcho } from '../../src/engines/icmp/types';
import { parseAddress, type Address } from '../../src/net/address';
import { MAX_ADDRESSES, MtrPath } from '../../src/tools/mtr/path-hops';
import { HopAssembler } from '../../src/tools/traceroute/hops';

// Cycles as the engine decides them, one probe per TTL (seq = ttl - 1), folded into an mtr's rows.
const ip = (text: string): Address => parseAddress(text) as Address;
const TARGET = '192.0.2.9';
const exceeded = (ttl: number, from: string, rttMs = 1): RawEcho => ({ seq: ttl - 1, status: 'time-exceeded', rttMs, from: ip(from), reason: 'ttl-exceeded', icmpType: 11, icmpCode: 0 });
const reply = (ttl: number, rttMs = 2): RawEcho => ({ seq: ttl - 1, status: 'reply', rttMs, from: ip(TARGET), icmpType: 0, icmpCode: 0 });
const timeout = (ttl: number): RawEcho => ({ seq: ttl - 1, status: 'timeout' });

function cycle(bound: number, probes: RawEcho[]): HopAssembler {
  const a = new HopAssembler(bound, 1, ip(TARGET));
  for (const p of probes) a.add(p);
  return a;
}

const none = () => ({});

test('the first cycle probes up to maxHops; once the destination answers, the next cycles go no further than its hop', () => {
  const path = new MtrPath(30);
  assert.is(path.bound(), 30);
  path.fold(cycle(path.bound(), [exceeded(1, '198.51.100.1'), exceeded(2, '198.51.100.2'), reply(3)]));
  assert.is(path.bound(), 3);
  assert.is(path.destinationReached(), true);
  path.fold(cycle(path.bound(), [exceeded(1, '198.51.100.1'), timeout(2), timeout(3)]));
  assert.equal(path.hops(none).map((h) => [h.ttl, h.sent, h.received]), [[1, 2, 2], [2, 2, 1], [3, 2, 1]]);
});

test('without an end of the path, the hops shown run one past the highest that answered', () => {
  const path = new MtrPath(6);
  path.fold(cycle(6, [exceeded(1, '198.51.100.1'), exceeded(2, '198.51.100.2'), timeout(3), timeout(4), timeout(5), timeout(6)]));
  assert.is(path.bound(), 6);
  assert.is(path.destinationReached(), false);
  assert.equal(path.hops(none).map((h) => h.ttl), [1, 2, 3]);
  assert.equal(new MtrPath(6).hops(none), []);
});

test('a hop nobody answers from at all shows hop 1 with its loss', () => {
  const path = new MtrPath(2);
  path.fold(cycle(2, [timeout(1), timeout(2)]));
  assert.equal(path.hops(none).map((h) => [h.ttl, h.sent, h.lossPercent, h.addresses]), [[1, 1, 100, []]]);
});

test('a router refusing with destination unreachable ends the path, not reached', () => {
  const path = new MtrPath(30);
  const refused: RawEcho = { seq: 1, status: 'unreachable', rttMs: 1, from: ip('198.51.100.2'), reason: 'admin-prohibited', icmpType: 3, icmpCode: 13 };
  path.fold(cycle(30, [exceeded(1, '198.51.100.1'), refused]));
  assert.is(path.bound(), 2);
  assert.is(path.destinationReached(), false);
  assert.equal(path.hops(none)[1]!.icmp, { type: 3, code: 13, name: 'admin-prohibited' });
});

test('every address that answers at a hop is listed with its count, in the order first seen, each announced once', () => {
  const announced: string[] = [];
  const path = new MtrPath(2, (a) => announced.push(a.text));
  for (const router of ['198.51.100.1', '198.51.100.7', '198.51.100.1']) path.fold(cycle(path.bound(), [exceeded(1, router), reply(2)]));
  assert.equal(path.hops(none)[0]!.addresses, [{ address: '198.51.100.1', count: 2 }, { address: '198.51.100.7', count: 1 }]);
  assert.equal(announced, ['198.51.100.1', TARGET, '198.51.100.7']);
});

test(`past ${MAX_ADDRESSES} addresses at one hop, further ones are not listed but their answers still count`, () => {
  const path = new MtrPath(2);
  for (let i = 1; i <= MAX_ADDRESSES + 2; i++) path.fold(cycle(path.bound(), [exceeded(1, `198.51.100.${i}`), reply(2)]));
  const hop = path.hops(none)[0]!;
  assert.is(hop.addresses.length, MAX_ADDRESSES);
  assert.equal([hop.sent, hop.received], [MAX_ADDRESSES + 2, MAX_ADDRESSES + 2]);
});

test('names are taken from the lookup as the rows are shown', () => {
  const path = new MtrPath(1);
  path.fold(cycle(1, [reply(1)]));
  assert.equal(path.hops((a) => (a === TARGET ? { name: 'target.test' } : {}))[0]!.addresses, [{ address: TARGET, name: 'target.test', count: 1 }]);
});

test('the figures are folded from unrounded round trips, in cycle order', () => {
  const path = new MtrPath(1);
  for (const rtt of [1.0004, 1.0004, 1.0008]) path.fold(cycle(1, [reply(1, rtt)]));
  const hop = path.hops(none)[0]!;
  assert.equal([hop.avgMs, hop.lastMs, hop.bestMs], [1.001, 1.001, 1]);
});

test.run();
