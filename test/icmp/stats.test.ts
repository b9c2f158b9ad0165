import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { packetStats, roundMicros, rttStats, summarize } from '../../src/engines/icmp/stats';
import { parseAddress } from '../../src/net/address';

test('times are rounded to microseconds', () => {
  assert.is(roundMicros(0.0214999), 0.021);
  assert.is(roundMicros(1.23456), 1.235);
  assert.is(roundMicros(0), 0);
});

test('mdev is the population standard deviation, as iputils computes it', () => {
  const s = rttStats([1, 2, 3, 4])!;
  assert.is(s.minMs, 1);
  assert.is(s.maxMs, 4);
  assert.is(s.avgMs, 2.5);
  assert.is(s.stddevMs, roundMicros(Math.sqrt(1.25)));
});

test('jitter is the mean absolute difference between consecutive RTTs, 0 with fewer than two', () => {
  assert.is(rttStats([10, 12, 9, 9])!.jitterMs, roundMicros((2 + 3 + 0) / 3));
  assert.is(rttStats([5])!.jitterMs, 0);
  assert.is(rttStats([5])!.stddevMs, 0);
});

test('no RTT statistics without replies', () => {
  assert.is(rttStats([]), null);
});

test('loss is over transmitted and duplicates are counted apart', () => {
  const p = packetStats(
    [
      { seq: 0, status: 'reply', rttMs: 1 },
      { seq: 1, status: 'timeout' },
      { seq: 2, status: 'unreachable', from: '198.18.0.1', reason: 'host-unreachable' },
    ],
    2,
  );
  assert.equal(p, { sent: 3, received: 1, duplicates: 2, lossPercent: 66.667 });
  assert.equal(packetStats([], 0), { sent: 0, received: 0, duplicates: 0, lossPercent: 0 });
});

test('summarize orders replies by seq, keeps only each status\'s fields and computes from unrounded RTTs', () => {
  const r = summarize({
    replies: [
      { seq: 1, status: 'reply', rttMs: 0.0214, ttl: 64, bytes: 64, from: parseAddress('127.0.0.1')! },
      { seq: 0, status: 'reply', rttMs: 0.0216, ttl: 64, bytes: 64, from: parseAddress('127.0.0.1')! },
      { seq: 2, status: 'time-exceeded', from: parseAddress('198.18.0.2')!, reason: 'ttl-exceeded' },
    ],
    duplicates: 0,
    durationMs: 412.34567,
  });
  assert.equal(r.replies, [
    { seq: 0, status: 'reply', rttMs: 0.022, ttl: 64, bytes: 64 },
    { seq: 1, status: 'reply', rttMs: 0.021, ttl: 64, bytes: 64 },
    { seq: 2, status: 'time-exceeded', from: '198.18.0.2', reason: 'ttl-exceeded' },
  ]);
  assert.is(r.rtt!.avgMs, 0.022); // 0.0215 before rounding
  assert.is(r.rtt!.jitterMs, 0); // 0.0002 rounds away
  assert.is(r.durationMs, 412.346);
  assert.equal(r.packets, { sent: 3, received: 2, duplicates: 0, lossPercent: 33.333 });
});

test.run();
