import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatCount, formatMicros, formatRatio, median, percentile, ratio } from '../../bench/lib/stats';

test('percentile is nearest-rank over the sorted sample', () => {
  const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
  assert.is(percentile(values, 50), 5);
  assert.is(percentile(values, 90), 9);
  assert.is(percentile(values, 99), 10);
  assert.is(percentile(values, 0), 1);
  assert.is(percentile(values, 100), 10);
});

test('percentile of no samples is null, and a p outside 0..100 throws', () => {
  assert.is(percentile([], 50), null);
  assert.throws(() => percentile([1], 101), /outside/);
});

test('median takes the middle value, or the mean of the two middle values', () => {
  assert.is(median([3, 1, 2]), 2);
  assert.is(median([4, 1, 3, 2]), 2.5);
  assert.is(median([]), null);
});

test('median does not reorder the caller’s array', () => {
  const values = [3, 1, 2];
  median(values);
  assert.equal(values, [3, 1, 2]);
});

test('ratio is null when a side is missing or the divisor is not positive', () => {
  assert.is(ratio(10, 4), 2.5);
  assert.is(ratio(null, 4), null);
  assert.is(ratio(10, undefined), null);
  assert.is(ratio(10, 0), null);
});

test('formatters pick units a reader takes in at a glance', () => {
  assert.is(formatRatio(null), 'n/a');
  assert.is(formatRatio(2.345), '2.35x');
  assert.is(formatRatio(23.4), '23x');
  assert.is(formatCount(0), '0');
  assert.is(formatCount(812.4), '812');
  assert.is(formatCount(45_678), '45.7k');
  assert.is(formatCount(1_234_567), '1.23M');
  assert.is(formatMicros(250), '250 µs');
  assert.is(formatMicros(4710), '4.71 ms');
  assert.is(formatMicros(1_550_000), '1.55 s');
});

test.run();
