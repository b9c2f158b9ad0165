import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HopTally } from '../../src/tools/mtr/stats';

// Probes in the order sent: a number is a reply's round trip in ms, null a probe nobody answered.
function tally(probes: ReadonlyArray<number | null>): HopTally {
  const t = new HopTally();
  for (const p of probes) (p === null ? t.lost() : t.answered(p));
  return t;
}

test('loss is the share of probes sent that got no answer', () => {
  const f = tally([10, null, 12, null, null]).figures();
  assert.equal([f.sent, f.received, f.lossPercent], [5, 2, 60]);
  assert.is(tally([1, 2, null]).figures().lossPercent, 33.333);
});

test('last, best, average and worst come from the replies alone', () => {
  const f = tally([10, 12, null, 11, 15]).figures();
  assert.equal([f.lastMs, f.bestMs, f.avgMs, f.worstMs], [15, 10, 12, 15]);
});

test('stddev is the sample standard deviation of the replies, as mtr reports it', () => {
  // Deviations from the mean 12: -2, 0, -1, 3; squares sum to 14, over n - 1 = 3.
  assert.is(tally([10, 12, null, 11, 15]).figures().stddevMs, roundedSqrt(14 / 3));
  assert.is(tally([4, 4, 4]).figures().stddevMs, 0);
});

test('jitter is the mean and the largest absolute difference between consecutive replies, the first counting 0, lost probes skipped', () => {
  // Differences: (first) 0, |12-10| 2, |11-12| 1 (the lost probe between them skipped), |15-11| 4.
  const f = tally([10, 12, null, 11, 15]).figures();
  assert.is(f.jitterMs, 7 / 4);
  assert.is(f.jitterMaxMs, 4);
});

test('one reply: no spread and no jitter yet', () => {
  const f = tally([null, 3.25]).figures();
  assert.equal([f.lastMs, f.bestMs, f.avgMs, f.worstMs, f.stddevMs, f.jitterMs, f.jitterMaxMs], [3.25, 3.25, 3.25, 3.25, 0, 0, 0]);
});

test('a hop that never answered: 100 % loss and no round-trip figures', () => {
  assert.equal(tally([null, null, null]).figures(), {
    sent: 3,
    received: 0,
    lossPercent: 100,
    lastMs: null,
    bestMs: null,
    avgMs: null,
    worstMs: null,
    stddevMs: null,
    jitterMs: null,
    jitterMaxMs: null,
  });
});

test('figures are rounded to microseconds once, from unrounded round trips', () => {
  // Mean 1.000533 rounds to 1.001; had each round trip been rounded first (1, 1, 1.001) it would be 1.
  assert.is(tally([1.0004, 1.0004, 1.0008]).figures().avgMs, 1.001);
});

function roundedSqrt(x: number): number {
  return Math.round(Math.sqrt(x) * 1000) / 1000;
}

test.run();
