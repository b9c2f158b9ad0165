import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { unpackEcho } from '../../src/engines/icmp/unpack';
import { toReply } from '../../src/engines/icmp/stats';

const NAMES = ['reply', 'timeout', 'unreachable', 'time-exceeded'];

test('one echo reported on the way reads back from the first eight numbers of a longer (reused) array', () => {
  const numbers = Float64Array.from([8, 0, 0.1234567, 64, 64, -2, -2, 0, 0, 9, 9, 9]);
  assert.equal(unpackEcho(NAMES, 3, numbers, ''), { seq: 3, status: 'reply', rttMs: 0.1234567, ttl: 64, bytes: 64, icmpType: 0, icmpCode: 0 });
  // As the API shows it: the same rounding as the result's replies.
  assert.equal(toReply(unpackEcho(NAMES, 3, numbers, '')), { seq: 3, status: 'reply', rttMs: 0.123, ttl: 64, bytes: 64 });
});

test('an error echo reported on the way carries its sender and reason', () => {
  const numbers = Float64Array.from([8, 3, -1, -1, -1, 10, 12, 11, 0]);
  assert.equal(unpackEcho(NAMES, 0, numbers, '198.18.0.1ttl-exceeded'), {
    seq: 0,
    status: 'time-exceeded',
    from: '198.18.0.1',
    reason: 'ttl-exceeded',
    icmpType: 11,
    icmpCode: 0,
  });
});

test('a packed echo that does not hold what it announces is refused, not read past its end', () => {
  assert.throws(() => unpackEcho(NAMES, 0, Float64Array.from([6, 0, 1, 64, 64, -2, -2]), ''), /eight numbers/);
  assert.throws(() => unpackEcho(NAMES, 0, Float64Array.from([8, 2, -1, -1, -1, 20, -2, 3, 1]), 'short'), /cut short/);
  assert.throws(() => unpackEcho(NAMES, 0, Float64Array.from([8, 9, -1, -1, -1, -2, -2, -1, -1]), ''), /unknown status/);
});

test.run();
