import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AddressRecord } from '../../src/engines/dns';
import { ADDRESS, isAnswered } from '../../src/engines/dns/types';
import { unpackOutcomes } from '../../src/engines/dns/unpack';

// A and AAAA answers cross from the engine as bytes (family, then big-endian 32-bit words) and are
// formatted once here: the JSON sees the text, the value rides under ADDRESS.
const word = (a: number, b: number, c: number, d: number): number => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
// answered, sends, rcode, flags (qr rd ra), rtt, udp, then the records, then no CNAME links, no OPT
// record, no RRSIGs.
const head = [1, 1, 0, 0x8180, 1.5, 0];

function pack(...numbers: number[]): [Float64Array, string] {
  return [Float64Array.from([numbers.length, ...numbers]), ''];
}

test('AAAA answers are RFC 5952 text (longest zero run, the first on a tie, mapped dotted), their bytes kept', () => {
  const packed = pack(
    ...head, 3,
    6, word(0x20, 0x01, 0x0d, 0xb8), 0, 0, word(0, 0, 0xab, 0xcd), 300,
    6, word(0x20, 0x01, 0x0d, 0xb8), 0, 0x10000, 1, 60,
    6, 0, 0, 0xffff, word(192, 0, 2, 1), 30,
    0, 0, 0,
  );
  const [entry] = unpackOutcomes(packed, ['AAAA'], 1);
  assert.ok(isAnswered(entry));
  assert.equal(entry.answers, [
    { address: '2001:db8::abcd', ttl: 300 },
    { address: '2001:db8::1:0:0:1', ttl: 60 }, // two runs of two: the first
    { address: '::ffff:192.0.2.1', ttl: 30 },
  ]);
  assert.is(JSON.stringify(entry.answers[0]), '{"address":"2001:db8::abcd","ttl":300}');
  const value = (entry.answers[2] as AddressRecord)[ADDRESS];
  assert.is(value.family, 6);
  assert.equal(Array.from(value.bytes), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 1]);
});

test('A answers are dotted quads from one word, their bytes kept', () => {
  const [entry] = unpackOutcomes(pack(...head, 2, 4, word(192, 0, 2, 255), 300, 4, word(10, 0, 0, 1), 5, 0, 0, 0), ['A'], 1);
  assert.ok(isAnswered(entry));
  assert.equal(entry.answers, [{ address: '192.0.2.255', ttl: 300 }, { address: '10.0.0.1', ttl: 5 }]);
  assert.equal(Array.from((entry.answers[0] as AddressRecord)[ADDRESS].bytes), [192, 0, 2, 255]);
});

test('an address with a family other than 4 or 6, or cut short, is refused', () => {
  assert.throws(() => unpackOutcomes(pack(...head, 1, 5, 1, 300, 0), ['A'], 1), /address family 5/);
  assert.throws(() => unpackOutcomes(pack(...head, 1, 6, 1, 2), ['AAAA'], 1), /missing/);
});

test.run();
