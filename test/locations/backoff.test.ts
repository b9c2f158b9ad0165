import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { backoffMs } from '../../src/locations/backoff';

test('the wait ceiling doubles per attempt from the base', () => {
  const top = (attempt: number) => backoffMs(attempt, 100, 10_000, () => 0.999999);
  assert.equal([0, 1, 2, 3].map(top), [99, 199, 399, 799]);
});

test('the ceiling stops at the cap however many attempts failed', () => {
  assert.is(backoffMs(40, 100, 5_000, () => 0.999999), 4_999);
  assert.is(backoffMs(10_000, 100, 5_000, () => 0.5), 2_500);
});

test('full jitter: the wait is anywhere from zero to the ceiling', () => {
  assert.is(backoffMs(3, 100, 10_000, () => 0), 0);
  assert.is(backoffMs(3, 100, 10_000, () => 0.5), 400);
});

test.run();
