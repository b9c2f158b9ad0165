import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { unpackEcho, unpackReply } from '../../src/engines/icmp/unpack';
import { toReply } from '../../src/engines/icmp/stats';
import { PackedReader } from '../../src/native/packed';
import { parseAddress, sameAddress } from '../../src/net/address';

const NAMES = ['reply', 'timeout', 'unreachable', 'time-exceeded'];
// One echo's packing, read as a reader of the engine's reports stands at it.
const at = (numbers: Float64Array, ascii: string): PackedReader => new PackedReader('packed echo', numbers, ascii);

test('one echo reported on the way reads back from the first eight numbers of a longer (reused) array', () => {
  const numbers = Float64Array.from([8, 0, 0.1234567, 64, 64, -2, -2, 0, 0, 9, 9, 9]);
  assert.equal(unpackEcho(NAMES, 3, at(numbers, '')), { seq: 3, status: 'reply', rttMs: 0.1234567, ttl: 64, bytes: 64, icmpType: 0, icmpCode: 0 });
  // As the API shows it: the same rounding as the result's replies.
  assert.equal(toReply(unpackEcho(NAMES, 3, at(numbers, ''))), { seq: 3, status: 'reply', rttMs: 0.123, ttl: 64, bytes: 64 });
});

// The sender crosses as bytes: its family, then big-endian 32-bit words.
const word = (a: number, b: number, c: number, d: number): number => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

test('an error echo reported on the way carries its sender and reason', () => {
  const numbers = Float64Array.from([9, 3, -1, -1, -1, 4, word(198, 18, 0, 1), 12, 11, 0]);
  const echo = unpackEcho(NAMES, 0, at(numbers, 'ttl-exceeded'));
  assert.ok(echo.from !== undefined && sameAddress(echo.from, parseAddress('198.18.0.1')!));
  assert.equal({ ...echo, from: echo.from?.text }, {
    seq: 0,
    status: 'time-exceeded',
    from: '198.18.0.1',
    reason: 'ttl-exceeded',
    icmpType: 11,
    icmpCode: 0,
  });
  assert.equal(toReply(unpackEcho(NAMES, 0, at(numbers, 'ttl-exceeded'))), { seq: 0, status: 'time-exceeded', from: '198.18.0.1', reason: 'ttl-exceeded' });
});

test('an IPv4-mapped IPv6 sender stays IPv6, written ::ffff:a.b.c.d; an IPv6 sender is RFC 5952 text', () => {
  const mapped = Float64Array.from([12, 2, 1.5, -1, -1, 6, 0, 0, 0xffff, word(198, 18, 0, 1), -2, 1, 4]);
  const echo = unpackEcho(NAMES, 1, at(mapped, ''));
  assert.is(echo.from?.family, 6);
  assert.equal(Array.from(echo.from!.bytes), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 18, 0, 1]);
  assert.is(toReply(echo).from, '::ffff:198.18.0.1');
  const v6 = Float64Array.from([12, 2, 1.5, -1, -1, 6, word(0x20, 0x01, 0x0d, 0xb8), 0, 0, 1, -2, 1, 4]);
  assert.is(toReply(unpackEcho(NAMES, 1, at(v6, ''))).from, '2001:db8::1');
});

test('a packed echo that does not hold what it announces is refused, not read past its end', () => {
  assert.throws(() => unpackEcho(NAMES, 0, at(Float64Array.from([6, 0, 1, 64, 64, -2, -2]), '')), /eight numbers/);
  assert.throws(() => unpackEcho(NAMES, 0, at(Float64Array.from([8, 2, -1, -1, -1, -2, 20, 3, 1]), 'short')), /cut short/);
  assert.throws(() => unpackEcho(NAMES, 0, at(Float64Array.from([9, 2, -1, -1, -1, 5, 1, -2, 3, 1]), '')), /address family 5/);
  assert.throws(() => unpackEcho(NAMES, 0, at(Float64Array.from([8, 9, -1, -1, -1, -2, -2, -1, -1]), '')), /unknown status/);
});

test('a streamed ping reads each echo straight into what it reports, as toReply makes it of the raw echo', () => {
  const packings: Array<[Float64Array, string]> = [
    [Float64Array.from([8, 0, 0.1234567, 64, 64, -2, -2, 0, 0, 9, 9, 9]), ''],
    [Float64Array.from([12, 0, 0.5, 63, 72, 6, word(0x20, 0x01, 0x0d, 0xb8), 0, 0, 1, -2, 129, 0]), ''],
    [Float64Array.from([8, 0, -1, -1, -1, -2, -2, 0, 0]), ''],
    [Float64Array.from([9, 3, -1, -1, -1, 4, word(198, 18, 0, 1), 12, 11, 0]), 'ttl-exceeded'],
    [Float64Array.from([8, 1, -1, -1, -1, -2, -2, -1, -1]), ''],
  ];
  for (const [numbers, ascii] of packings) assert.equal(unpackReply(NAMES, 7, at(numbers, ascii)), toReply(unpackEcho(NAMES, 7, at(numbers, ascii))));
});

test('a streamed ping refuses a packed reply that does not hold what it announces', () => {
  assert.throws(() => unpackReply(NAMES, 0, at(Float64Array.from([6, 0, 1, 64, 64, -2, -2]), '')), /eight numbers/);
  assert.throws(() => unpackReply(NAMES, 0, at(Float64Array.from([9, 0, 1, 64, 64, 5, 1, -2, 0, 0]), '')), /address family 5/);
  assert.throws(() => unpackReply(NAMES, 0, at(Float64Array.from([8, 0, 1, 64, 64, 6, 1, 2, 3]), '')), /number 9 missing/);
  assert.throws(() => unpackReply(NAMES, 0, at(Float64Array.from([8, 9, -1, -1, -1, -2, -2, -1, -1]), '')), /unknown status/);
});

test.run();
