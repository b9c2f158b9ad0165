import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseMetrics } from '../../bench/soak/sampler';
import type { Sample, Trend } from '../../bench/soak/types';
import { fdTrend, judge, rssTrend, trendOf, type VerdictInputs } from '../../bench/soak/verdict';

// The soak's pass/fail rules on synthetic series: 30 minutes of one sample a second, 5 minutes warm-up.
const WARMUP = 300;
const SECONDS = 1800;

function samples(rssKiB: (t: number) => number, fds: (t: number) => number = () => 48): Sample[] {
  const out: Sample[] = [];
  for (let t = 1; t <= SECONDS; t++) {
    out.push({ t, rssKiB: rssKiB(t), fds: fds(t), inFlight: {}, loopLagP99Ms: null, loopLagMaxMs: null, loopLagMs: null, requests: 150, faults: [] });
  }
  return out;
}

// Garbage-collection sawtooth: 20 MiB up over 40 s, then back down, around 100 MiB.
const sawtooth = (t: number) => 100 * 1024 + ((t % 40) / 40) * 20 * 1024;

test('a flat RSS with garbage-collection sawtooth is not growth', () => {
  assert.is(rssTrend(samples(sawtooth), WARMUP).growing, false);
});

test('RSS climbing 2 MiB a minute after warm-up is growth', () => {
  const trend = rssTrend(samples((t) => sawtooth(t) + (t / 60) * 2 * 1024), WARMUP);
  assert.is(trend.growing, true);
  assert.ok(trend.slopeLowPerHour > 100 * 1024, `slope low ${trend.slopeLowPerHour}`);
});

test('a rise during warm-up only is not growth', () => {
  assert.is(rssTrend(samples((t) => sawtooth(t) + Math.min(t, WARMUP) * 100), WARMUP).growing, false);
});

test('open fds that jitter by a few are not growth, one more fd a minute is', () => {
  const jitter = (t: number) => 48 + ((t * 7) % 5) - 2;
  assert.is(fdTrend(samples(sawtooth, jitter), WARMUP).growing, false);
  assert.is(fdTrend(samples(sawtooth, (t) => jitter(t) + Math.floor(t / 60)), WARMUP).growing, true);
});

test('too few points give no verdict of growth', () => {
  assert.is(trendOf([[0, 1], [1, 100], [2, 1000]], 1).growing, false);
});

const flat: Trend = { slopePerHour: 0, slopeLowPerHour: 0, firstThirdMedian: 1, lastThirdMedian: 1, tolerance: 1, growing: false };
const inputs = (over: Partial<VerdictInputs>): VerdictInputs => ({
  rss: flat,
  fds: flat,
  idleInFlight: { nettools_http_requests_in_flight: 1 },
  inFlightAtEnd: { nettools_http_requests_in_flight: 1 },
  status500: 0,
  serverExit: null,
  samples: SECONDS,
  expectedSamples: SECONDS,
  harnessProblems: [],
  ...over,
});

test('a run with flat trends, gauges back to idle and no 500 passes', () => {
  const v = judge(inputs({}));
  assert.is(v.ok, true, v.failures.join('; '));
});

test('an in-flight gauge above its idle reading at the end fails the run', () => {
  const v = judge(inputs({ inFlightAtEnd: { nettools_http_requests_in_flight: 3 } }));
  assert.is(v.ok, false);
  assert.match(v.failures.join('\n'), /2 still in flight/);
});

test('a single 500 fails the run', () => {
  assert.is(judge(inputs({ status500: 1 })).ok, false);
});

test('growth, a dead server or a fault that could not be injected each fail the run', () => {
  assert.is(judge(inputs({ rss: { ...flat, growing: true } })).ok, false);
  assert.is(judge(inputs({ serverExit: 'exit 1' })).ok, false);
  assert.is(judge(inputs({ harnessProblems: ['starting resolver-paused: kill ESRCH'] })).ok, false);
});

test('the in-flight gauges and event-loop delay are read from the metrics text', () => {
  const text = [
    '# HELP nettools_http_requests_in_flight Requests being served now.',
    'nettools_http_requests_in_flight 3',
    'nettools_engine_in_flight{engine="dns"} 2',
    'nodejs_eventloop_lag_seconds 0.0021',
    'nodejs_eventloop_lag_p99_seconds 0.0102',
    'nodejs_eventloop_lag_max_seconds 0.0154',
    'nettools_rate_limit_clients 12',
  ].join('\n');
  const m = parseMetrics(text);
  assert.equal(m.inFlight, { nettools_http_requests_in_flight: 3, 'nettools_engine_in_flight{engine="dns"}': 2 });
  assert.ok(Math.abs((m.loopLagP99Ms ?? 0) - 10.2) < 1e-9);
  assert.ok(Math.abs((m.loopLagMaxMs ?? 0) - 15.4) < 1e-9);
  assert.ok(Math.abs((m.loopLagMs ?? 0) - 2.1) < 1e-9);
});

test.run();
