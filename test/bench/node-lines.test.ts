import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatNodeLineRow, nodeLineRows } from '../../bench/lib/node-lines';
import { pair } from './fixtures';

test('Node 24 vs Node 20 ratios are Node 24 over Node 20, the median of the rounds', () => {
  // Rounds: req/s 110/100, 90/100, 120/100 -> median 1.1; CPU 9/10, 10/10, 8/10 -> median 0.9.
  const [row] = nodeLineRows([pair('validation', 'nettools-node24', [[100, 10], [100, 10], [100, 10]], [[110, 9], [90, 10], [120, 8]])]);
  assert.ok(row && !('unavailable' in row));
  assert.is((row as { requestsRatio: number }).requestsRatio.toFixed(2), '1.10');
  assert.is((row as { cpuRatio: number }).cpuRatio.toFixed(2), '0.90');
  assert.is(formatNodeLineRow(row), 'validation: Node 24 ÷ Node 20 = 1.10x req/s, 0.90x CPU per request (3 rounds; medians Node 20 100 req/s, 10.0 µs CPU/req, Node 24 110 req/s, 9.0 µs CPU/req)');
});

test('a scenario that could not be measured says why instead of a ratio', () => {
  const rows = nodeLineRows([{ scenario: 'ping', first: 'nettools', second: 'nettools-node24', unavailable: 'nettools-node24 ping: unavailable: 503 engine-unavailable' }]);
  assert.is(formatNodeLineRow(rows[0]!), 'ping: not measured (nettools-node24 ping: unavailable: 503 engine-unavailable)');
});

test('a ratio without CPU readings is shown as unknown, not as a number', () => {
  const p = pair('dns', 'nettools-node24', [[100, 10]], [[100, 10]]);
  p.secondRuns[0]!.cpuUsPerRequest = null;
  assert.match(formatNodeLineRow(nodeLineRows([p])[0]!), /= 1\.00x req\/s, \? CPU per request/);
});

test.run();
