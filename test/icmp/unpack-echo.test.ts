import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { unpackEcho } from '../../src/engines/icmp/unpack';
import { toReply } from '../../src/engines/icmp/stats';

const NAMES = ['reply', 'timeout', 'unreachable', 'time-exceeded'];

test('one echo reported on the way reads back from the first eight numbers of a longer (reused) array', () => {
  const numbers = Float64Array.from([0, 0.1234567, 64, 64, -1, -1, 0, 0, 9, 9, 9]);
  assert.equal(unpackEcho(3, numbers, '', NAMES), { seq: 3, status: 'reply', rttMs: 0.1234567, ttl: 64, bytes: 64, icmpType: 0, icmpCode: 0 });
  // As the API shows it: the same rounding as the result's replies.
  assert.equal(toReply(unpackEcho(3, numbers, '', NAMES)), { seq: 3, status: 'reply', rttMs: 0.123, ttl: 64, bytes: 64 });
});

test('an error echo reported on the way carries its sender and reason', () => {
  const numbers = Float64Array.from([3, -1, -1, -1, 10, 12, 11, 0]);
  assert.equal(unpackEcho(0, numbers, '198.18.0.1ttl-exceeded', NAMES), {
    seq: 0,
    status: 'time-exceeded',
    from: '198.18.0.1',
    reason: 'ttl-exceeded',
    icmpType: 11,
    icmpCode: 0,
  });
});

test('a packed echo that does not hold what it announces is refused, not read past its end', () => {
  assert.throws(() => unpackEcho(0, Float64Array.from([0, 1, 64, 64, -1, -1]), '', NAMES), /eight numbers/);
  assert.throws(() => unpackEcho(0, Float64Array.from([2, -1, -1, -1, 20, -1, 3, 1]), 'short', NAMES), /cut short/);
  assert.throws(() => unpackEcho(0, Float64Array.from([9, -1, -1, -1, -1, -1, -1, -1]), '', NAMES), /unknown status/);
});

test.run();
