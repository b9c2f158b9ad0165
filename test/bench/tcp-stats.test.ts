import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { attemptsByResult, checkCost, compare, parseConnectLoop, spread } from '../../bench/lib/tcp-stats';

test('connect-loop nanoseconds are read as microseconds', () => {
  assert.equal(parseConnectLoop('8278\n16003\n', 2), { ok: true, samplesUs: [8.278, 16.003] });
});

test('a connect-loop error line is a failure that says how far it got', () => {
  const read = parseConnectLoop('9000\nerror Connection refused\n', 5);
  assert.equal(read, { ok: false, error: 'connect-loop: Connection refused after 1 connections' });
});

test('fewer samples than asked, or a line that is not a count, is not a measurement', () => {
  assert.is(parseConnectLoop('9000\n', 2).ok, false);
  assert.is(parseConnectLoop('9000\n1.5e3\n', 2).ok, false);
});

test('p50 and p99 are nearest-rank percentiles of the samples', () => {
  const samples = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(spread(samples), { count: 100, p50Us: 50, p99Us: 99 });
  assert.is(spread([]), null);
});

test('the comparison is met only when both differences are within 20 µs either way', () => {
  const ref = Array.from({ length: 100 }, (_, i) => 10 + i);
  const close = compare(ref.map((x) => x + 20), ref)!;
  assert.equal([close.p50DiffUs, close.p99DiffUs, close.met], [20, 20, true]);
  const tailFar = compare(ref.map((x, i) => (i >= 98 ? x + 50 : x)), ref)!;
  assert.equal([tailFar.p50DiffUs, tailFar.p99DiffUs, tailFar.met], [0, 50, false]);
  assert.is(compare(ref.map((x) => x - 25), ref)!.met, false);
});

test('a check costs the server CPU ticks over checks, and a core does the inverse of that per second', () => {
  // 150 ticks at 100 per second = 1.5 s of CPU over 30000 checks: 50 µs each, 20000 per core-second.
  assert.equal(checkCost({ user: 90, system: 60 }, 100, 30_000), { checks: 30_000, cpuUsPerCheck: 50, systemUsPerCheck: 20, checksPerCoreSecond: 20_000 });
  assert.is(checkCost({ user: 0, system: 0 }, 100, 30_000), null);
  assert.is(checkCost({ user: 90, system: 60 }, 100, 0), null);
});

test('the server\'s tcp attempts are read by result from its metrics text, other series left alone', () => {
  const text = [
    '# HELP nettools_tcp_attempts_total TCP connection attempts by result.',
    '# TYPE nettools_tcp_attempts_total counter',
    'nettools_tcp_attempts_total{result="connected"} 20084',
    'nettools_tcp_attempts_total{result="refused"} 3',
    'nettools_tcp_requests_total{outcome="ok"} 20087',
  ].join('\n');
  assert.equal(attemptsByResult(text), { connected: 20084, refused: 3 });
  assert.equal(attemptsByResult(''), {});
});

test.run();
