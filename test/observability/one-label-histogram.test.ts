import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Histogram, Registry } from 'prom-client';
import { OneLabelHistogram } from '../../src/observability/one-label-histogram';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
// Edges, values between them, beyond the last bound, zero and a long tail.
const OBSERVATIONS: Array<[string, number]> = [
  ['/api/tools/ping', 0.0001],
  ['/api/tools/ping', 0.0005],
  ['/api/tools/ping', 0.00051],
  ['/api/tools/dns', 0.02],
  ['/api/tools/ping', 31],
  ['/api/tools/dns', 0],
  ['unmatched', 2.5],
  ['/api/tools/dns', 9.99],
  ['/health', 0.003],
];

function pair() {
  const ours = new Registry();
  const theirs = new Registry();
  const mine = new OneLabelHistogram('t_seconds', 'Help text.', 'route', BUCKETS, ours);
  const reference = new Histogram({ name: 't_seconds', help: 'Help text.', labelNames: ['route'], buckets: BUCKETS, registers: [theirs] });
  return { ours, theirs, mine, reference };
}

test('the exposition is the text prom-client writes for the same observations', async () => {
  const { ours, theirs, mine, reference } = pair();
  for (const [route, value] of OBSERVATIONS) {
    mine.series(route)(value);
    reference.observe({ route }, value);
  }
  assert.is(await ours.metrics(), await theirs.metrics());
});

test('label values that need escaping are escaped as prom-client escapes them', async () => {
  const { ours, theirs, mine, reference } = pair();
  const route = 'a"b\\c\nd';
  mine.series(route)(0.2);
  reference.observe({ route }, 0.2);
  assert.is(await ours.metrics(), await theirs.metrics());
});

test('one recorder per label value adds to the same series', async () => {
  const { ours, mine } = pair();
  mine.series('x')(0.001);
  mine.series('x')(0.001);
  const text = await ours.metrics();
  assert.match(text, 't_seconds_count{route="x"} 2');
  assert.match(text, 't_seconds_bucket{le="0.001",route="x"} 2');
  assert.match(text, 't_seconds_bucket{le="0.0005",route="x"} 0');
});

test('reset empties every series', async () => {
  const { ours, mine } = pair();
  const record = mine.series('x');
  record(1);
  ours.resetMetrics();
  assert.match(await ours.metrics(), 't_seconds_count{route="x"} 0');
  record(1);
  assert.match(await ours.metrics(), 't_seconds_count{route="x"} 1');
});

test.run();
