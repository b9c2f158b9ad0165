import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AttemptTally, toAttempt } from '../../../src/tools/tcp/tally';

test('a connected attempt shows its time in microseconds, and no errno', () => {
  assert.equal(toAttempt(3, { outcome: 'connected', elapsedMs: 1.23456 }), { seq: 3, status: 'connected', connectMs: 1.235 });
});

test('a failed attempt shows its errno, a timeout none', () => {
  assert.equal(toAttempt(0, { outcome: 'refused', elapsedMs: 0.2, errno: 'ECONNREFUSED' }), { seq: 0, status: 'refused', errno: 'ECONNREFUSED' });
  assert.equal(toAttempt(1, { outcome: 'timeout', elapsedMs: 100 }), { seq: 1, status: 'timeout' });
});

test('statistics are over connected attempts only; loss over every attempt', () => {
  const tally = new AttemptTally();
  tally.add('connected', 1);
  tally.add('timeout', 2000);
  tally.add('connected', 3);
  tally.add('refused', 0.1);
  assert.equal(tally.attempts(), { sent: 4, connected: 2, lossPercent: 50 });
  assert.equal(tally.connectMs(), { min: 1, avg: 2, max: 3, stddev: 1 });
  assert.equal(tally.statuses, { connected: 2, refused: 1, timeout: 1, unreachable: 0, error: 0 });
});

test('no connection: no statistics', () => {
  const tally = new AttemptTally();
  tally.add('refused', 0.1);
  assert.is(tally.connectMs(), null);
});

test.run();
