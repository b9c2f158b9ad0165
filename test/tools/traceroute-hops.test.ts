import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RawEcho } from '../../src/engines/icmp/types';
import { addressOf, parseAddress, type Address } from '../../src/net/address';
import { HopAssembler } from '../../src/tools/traceroute/hops';

// Probes as the engine reports them, in any order: index = (ttl - 1) * probesPerHop + probe; senders as
// the engine hands them back, bytes made values.
const ip = (text: string): Address => parseAddress(text) as Address;
const TARGET_TEXT = '192.0.2.9';
const TARGET = ip(TARGET_TEXT);
const exceeded = (seq: number, from: string): RawEcho => ({ seq, status: 'time-exceeded', rttMs: 1.2345, from: ip(from), reason: 'ttl-exceeded', icmpType: 11, icmpCode: 0 });
const reply = (seq: number, from: Address = TARGET): RawEcho => ({ seq, status: 'reply', rttMs: 2, ttl: 62, bytes: 40, from, icmpType: 0, icmpCode: 0 });
const timeout = (seq: number): RawEcho => ({ seq, status: 'timeout' });

test('a hop is handed out only once it and every lower hop are decided, in TTL order', () => {
  const a = new HopAssembler(4, 1, TARGET);
  a.add(exceeded(1, '198.51.100.2'));
  assert.equal(a.newlyDecided(), []);
  a.add(exceeded(0, '198.51.100.1'));
  assert.equal(a.newlyDecided().map((h) => h.ttl), [1, 2]);
  assert.is(a.complete(), false);
});

test('the path ends at the first TTL the target answers; higher TTLs are left out and need not be decided', () => {
  const a = new HopAssembler(5, 2, TARGET);
  for (const p of [reply(4), reply(5), exceeded(0, '198.51.100.1'), timeout(1), exceeded(2, '198.51.100.2')]) a.add(p);
  assert.is(a.complete(), false); // the second probe of TTL 2 is still out
  a.add(exceeded(3, '198.51.100.2'));
  assert.is(a.complete(), true);
  assert.equal(a.newlyDecided().map((h) => h.ttl), [1, 2, 3]);
  assert.is(a.destinationReached(), true);
  assert.equal(a.hops()[0]!.probes, [{ address: '198.51.100.1', rttMs: 1.235, icmp: { type: 11, code: 0, name: 'ttl-exceeded' } }, { status: 'timeout' }]);
  assert.equal(a.hops()[2]!.probes[0], { address: TARGET_TEXT, rttMs: 2, icmp: { type: 0, code: 0, name: 'echo-reply' } });
});

test('a router that answers destination unreachable ends the path without reaching the destination', () => {
  const a = new HopAssembler(3, 1, TARGET);
  a.add(exceeded(0, '198.51.100.1'));
  a.add({ seq: 1, status: 'unreachable', rttMs: 1, from: ip('198.51.100.2'), reason: 'admin-prohibited', icmpType: 3, icmpCode: 13 });
  assert.is(a.complete(), true);
  assert.equal(a.hops().length, 2);
  assert.is(a.destinationReached(), false);
});

test('with no final answer the path runs to maxHops; a probe that could not be sent shows as a timeout', () => {
  const a = new HopAssembler(2, 1, TARGET);
  a.add(timeout(0));
  a.add({ seq: 1, status: 'unreachable', reason: 'send-failed' });
  // A local send failure has no sender: it is no answer, and no end of the path either.
  assert.equal(a.hops().map((h) => h.probes), [[{ status: 'timeout' }], [{ status: 'timeout' }]]);
  assert.is(a.destinationReached(), false);
});

test('the destination is the target\'s bytes: equal bytes reach it, a mapped IPv6 or a neighbour does not', () => {
  // A fresh value with equal bytes (as the engine's sender is) reaches the target; an IPv4-mapped IPv6
  // sender carrying the same four bytes is another address, and so is a neighbour.
  const same = new HopAssembler(1, 1, TARGET);
  same.add(reply(0, addressOf(4, Uint8Array.from([192, 0, 2, 9]))));
  assert.is(same.destinationReached(), true);
  const v6 = new HopAssembler(1, 1, TARGET);
  const mapped = addressOf(6, Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 9]));
  assert.is(mapped.text, '::ffff:192.0.2.9');
  v6.add(reply(0, mapped));
  assert.is(v6.destinationReached(), false);
  assert.equal(v6.hops()[0]!.probes[0], { address: '::ffff:192.0.2.9', rttMs: 2, icmp: { type: 0, code: 0, name: 'echo-reply' } });
  const other = new HopAssembler(1, 1, TARGET);
  other.add(reply(0, ip('192.0.2.10')));
  assert.is(other.destinationReached(), false);
});

test('a probe index outside the trace is ignored', () => {
  const a = new HopAssembler(1, 1, TARGET);
  a.add(reply(7));
  assert.is(a.complete(), false);
});

test.run();
