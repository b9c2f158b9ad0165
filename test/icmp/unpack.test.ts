import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { unpackResult } from '../../src/engines/icmp/unpack';

const NAMES = ['reply', 'timeout', 'unreachable', 'time-exceeded'];

test('a packed result reads back as echoes in order, absent numbers and texts left out', () => {
  // 20 numbers: 2 echoes, 1 duplicate, 12.5 ms; a reply without a TTL or ICMP type (-2: no sender, no
  // text), then an unreachable with its round trip, sender (IPv4: family 4 and one big-endian word),
  // reason and ICMP type and code.
  const sender = ((198 << 24) | (18 << 16) | 2) >>> 0;
  const numbers = Float64Array.from([20, 2, 1, 12.5, 0, 0.25, -1, 64, -2, -2, -1, -1, 2, 1.5, -1, -1, 4, sender, 16, 3, 1]);
  const r = unpackResult(NAMES, numbers, 'host-unreachable');
  assert.equal(Array.from(r.replies[1]!.from!.bytes), [198, 18, 0, 2]);
  // The sender as its text, as JSON shows it.
  const replies = r.replies.map((e) => (e.from === undefined ? e : { ...e, from: e.from.text }));
  assert.equal({ ...r, replies }, {
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
  assert.throws(() => unpackResult(NAMES, Float64Array.from([11, 1, 0, 1, 2, -1, -1, -1, -2, 20, -1, -1]), 'short'), /cut short/);
  assert.throws(() => unpackResult(NAMES, Float64Array.from([12, 1, 0, 1, 2, -1, -1, -1, 6, 1, 2, 3]), ''), /missing/);
  assert.throws(() => unpackResult(NAMES, Float64Array.from([11, 1, 0, 1, 7, -1, -1, -1, -2, -2, -1, -1]), ''), /unknown status/);
});

test('the engine names its statuses in the order the packed numbers use', async () => {
  const { nativeEngineClass } = await import('../../src/engines/icmp/native');
  assert.equal(nativeEngineClass().statusNames, NAMES);
});

test.run();
