import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { unpackResult } from '../../src/engines/icmp/unpack';

const NAMES = ['reply', 'timeout', 'unreachable', 'time-exceeded'];

test('a packed result reads back as echoes in order, absent numbers and texts left out', () => {
  // 19 numbers: 2 echoes, 1 duplicate, 12.5 ms; a reply without a TTL or ICMP type (-2: no text), then
  // an unreachable with its round trip, sender, reason and ICMP type and code.
  const numbers = Float64Array.from([19, 2, 1, 12.5, 0, 0.25, -1, 64, -2, -2, -1, -1, 2, 1.5, -1, -1, 10, 16, 3, 1]);
  const r = unpackResult(NAMES, numbers, '198.18.0.2host-unreachable');
  assert.equal(r, {
    replies: [
      { seq: 0, status: 'reply', rttMs: 0.25, bytes: 64 },
      { seq: 1, status: 'unreachable', rttMs: 1.5, from: '198.18.0.2', reason: 'host-unreachable', icmpType: 3, icmpCode: 1 },
    ],
    duplicates: 1,
    durationMs: 12.5,
  });
});

test('only the echoes the count names are read from a longer (reused) array', () => {
  const numbers = Float64Array.from([11, 1, 0, 1, 1, -1, -1, -1, -2, -2, -1, -1, 0, 5, 5, 5, 5, 5, 5, 5]);
  assert.equal(unpackResult(NAMES, numbers, '').replies, [{ seq: 0, status: 'timeout' }]);
});

test('a packed result that does not hold what it announces is refused, not read past its end', () => {
  assert.throws(() => unpackResult(NAMES, Float64Array.from([11, 2, 0, 1, 1, -1, -1, -1, -2, -2, -1, -1, 1, -1, -1, -1, -2, -2, -1, -1]), ''), /do not fit/);
  assert.throws(() => unpackResult(NAMES, Float64Array.from([11, 1, 0, 1, 2, -1, -1, -1, 20, -2, -1, -1]), 'short'), /cut short/);
  assert.throws(() => unpackResult(NAMES, Float64Array.from([11, 1, 0, 1, 7, -1, -1, -1, -2, -2, -1, -1]), ''), /unknown status/);
});

test('the engine names its statuses in the order the packed numbers use', async () => {
  const { nativeEngineClass } = await import('../../src/engines/icmp/native');
  assert.equal(nativeEngineClass().statusNames, NAMES);
});

test.run();
