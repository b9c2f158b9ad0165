import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RestartPacing } from '../../src/workers/restarts';

test('the first death in a minute is replaced at once', () => {
  assert.is(new RestartPacing().next(0), 0);
});

test('deaths that keep coming are replaced after doubling waits, up to 10 s', () => {
  const pacing = new RestartPacing();
  const waits = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => pacing.next(i * 100));
  assert.equal(waits, [0, 250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
});

test('a death more than a minute after the others is replaced at once again', () => {
  const pacing = new RestartPacing();
  pacing.next(0);
  pacing.next(1000);
  assert.is(pacing.next(62_000), 0);
});

test.run();
