import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRevisionOptions, REVISION_SCENARIOS } from '../../bench/lib/revision-options';
import { formatRevisionTable, revisionRows } from '../../bench/lib/revision-table';
import { pair } from './fixtures';

test('one revision is the base against the working tree, with 9 rounds of 2 s at 64 connections in every scenario', () => {
  assert.equal(parseRevisionOptions(['4b243fc']), { base: '4b243fc', other: null, same: false, rounds: 9, runS: 2, warmupS: 2, connections: 64, scenarios: [...REVISION_SCENARIOS], limit: 1.02, instructions: false, warmupRequests: 10000, requests: [2000, 6000] });
});

test('--instructions counts instructions, after the warm-up and in the two segments given', () => {
  const counted = parseRevisionOptions(['4b243fc', '--instructions', '--warmup-requests', '500', '--requests', '200,700']);
  assert.ok(typeof counted === 'object');
  if (typeof counted !== 'object') return;
  assert.equal([counted.instructions, counted.warmupRequests, counted.requests], [true, 500, [200, 700]]);
});

test('request counts that cannot make a difference are refused', () => {
  assert.match(parseRevisionOptions(['a', '--requests', '3000,1000']) as string, /--requests takes two whole counts N1,N2 with N1 < N2/);
  assert.match(parseRevisionOptions(['a', '--requests', '1000']) as string, /--requests takes two whole counts/);
  assert.match(parseRevisionOptions(['a', '--requests', '10,2.5e1x']) as string, /--requests takes two whole counts/);
  assert.match(parseRevisionOptions(['a', '--warmup-requests', '1.5']) as string, /--warmup-requests needs a positive whole number/);
});

test('two revisions, --same and the settings are read', () => {
  const two = parseRevisionOptions(['main~3', 'main', '--rounds', '5', '--run-s', '1.5', '--connections', '16', '--scenarios', 'dns,ping', '--limit', '1.05']);
  assert.ok(typeof two === 'object');
  if (typeof two !== 'object') return;
  assert.equal([two.base, two.other, two.rounds, two.runS, two.connections, two.scenarios, two.limit], ['main~3', 'main', 5, 1.5, 16, ['dns', 'ping'], 1.05]);
  const same = parseRevisionOptions(['--same', 'abc123']);
  assert.ok(typeof same === 'object' && same.same && same.base === 'abc123' && same.other === null);
});

test('wrong arguments are refused with the reason', () => {
  assert.match(parseRevisionOptions([]) as string, /a base revision is needed/);
  assert.match(parseRevisionOptions(['a', 'b', 'c']) as string, /at most two revisions/);
  assert.match(parseRevisionOptions(['a', 'b', '--same']) as string, /--same compares the base with itself/);
  assert.match(parseRevisionOptions(['a', '--rounds', '0']) as string, /--rounds needs a positive whole number/);
  assert.match(parseRevisionOptions(['a', '--rounds', '2.5']) as string, /--rounds needs a positive whole number/);
  assert.match(parseRevisionOptions(['a', '--run-s']) as string, /--run-s needs a positive number, not ""/);
  assert.match(parseRevisionOptions(['a', '--scenarios', 'dns,nope']) as string, /--scenarios takes some of/);
  assert.match(parseRevisionOptions(['a', '--fast']) as string, /unknown option "--fast"/);
});

test('the CPU ratio is new over old, the median of the rounds, and judged against the limit', () => {
  // CPU rounds: 21/20, 19/20, 22/20 -> ratios 1.05, 0.95, 1.10 -> median 1.05; medians of each side 20 and 21.
  const slower = pair('dns', 'nettools-other', [[100, 20], [100, 20], [100, 20]], [[90, 21], [110, 19], [95, 22]]);
  // CPU rounds: 10.2/10, 10.1/10, 9.9/10 -> median 1.01, within 1.02.
  const same = pair('validation', 'nettools-other', [[100, 10], [100, 10], [100, 10]], [[100, 10.2], [100, 10.1], [100, 9.9]]);
  const [dns, validation] = revisionRows([slower, same], 1.02);
  assert.ok(dns && !('unavailable' in dns) && validation && !('unavailable' in validation));
  if (!dns || 'unavailable' in dns || !validation || 'unavailable' in validation) return;
  assert.equal([dns.baseCpuUs, dns.otherCpuUs, dns.cpuRatio?.toFixed(3), dns.within, dns.rpsRatio?.toFixed(2), dns.rounds], [20, 21, '1.050', false, '0.95', 3]);
  assert.equal([validation.cpuRatio?.toFixed(3), validation.within], ['1.010', true]);
  const table = formatRevisionTable([dns, validation], '4b243fc', 'e07f1f3', 1.02).split('\n');
  assert.is(table[0], '| scenario | CPU/req 4b243fc | CPU/req e07f1f3 | CPU ratio (new ÷ old) | within 1.02x | req/s 4b243fc / e07f1f3 | req/s ratio | rounds |');
  assert.is(table[2], '| dns | 20.0 µs | 21.0 µs | 1.050x | **no** | 100 / 95 | 0.950x | 3 |');
  assert.is(table[3], '| validation | 10.0 µs | 10.1 µs | 1.010x | yes | 100 / 100 | 1.000x | 3 |');
});

test('a scenario without CPU readings or without runs says so instead of a ratio', () => {
  const noCpu = pair('ping', 'nettools-other', [[100, 10]], [[100, 10]]);
  noCpu.secondRuns[0]!.cpuUsPerRequest = null;
  const rows = revisionRows([noCpu, { scenario: 'dns-hot', first: 'nettools', second: 'nettools-other', unavailable: 'nettools-other dns-hot: unavailable: 503 (no code)' }], 1.02);
  const table = formatRevisionTable(rows, 'a', 'b', 1.02).split('\n');
  assert.is(table[2], '| ping | 10.0 µs | ? | ? | ? | 100 / 100 | 1.000x | 1 |');
  assert.is(table[3], '| dns-hot | not measured: nettools-other dns-hot: unavailable: 503 (no code) | | | | | | |');
});

test.run();
