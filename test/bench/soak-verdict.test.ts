import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseMetrics } from '../../bench/soak/sampler';
import type { AfterCollections, Sample, Trend } from '../../bench/soak/types';
import { afterFalls, fdTrend, judge, oldAfterCollections, rssOutsideHeapTrend, rssTrend, trendOf, type VerdictInputs } from '../../bench/soak/verdict';

// The soak's pass/fail rules on synthetic series: 30 minutes of one sample a second, 5 minutes warm-up.
const WARMUP = 300;
const SECONDS = 1800;
const MiB = 1024; // the samples count KiB

interface Series {
  rss: (t: number) => number;
  heapTotal?: (t: number) => number;
  oldUsed?: (t: number) => number;
  fds?: (t: number) => number;
  seconds?: number;
}

// Between major collections the old generation fills from 10 to 17 MiB over 5 minutes, as measured.
const oldSawtooth = (t: number) => 10 * MiB + ((t % 300) / 300) * 7 * MiB;

function samples({ rss, heapTotal = () => 50 * MiB, oldUsed = oldSawtooth, fds = () => 48, seconds = SECONDS }: Series): Sample[] {
  const out: Sample[] = [];
  for (let t = 1; t <= seconds; t++) {
    const memory = { heapTotalKiB: heapTotal(t), heapUsedKiB: null, externalKiB: null, youngGenerationKiB: null, oldGenerationUsedKiB: oldUsed(t) };
    out.push({ t, rssKiB: rss(t), fds: fds(t), ...memory, inFlight: {}, loopLagP99Ms: null, loopLagMaxMs: null, loopLagMs: null, requests: 150, faults: [] });
  }
  return out;
}

// Garbage-collection sawtooth: 20 MiB up over 40 s, then back down, around 100 MiB.
const sawtooth = (t: number) => 100 * MiB + ((t % 40) / 40) * 20 * MiB;

test('a flat RSS with garbage-collection sawtooth is not growth', () => {
  assert.is(rssOutsideHeapTrend(samples({ rss: sawtooth }), WARMUP).growing, false);
});

test('RSS climbing 2 MiB a minute outside the V8 heap is growth', () => {
  const trend = rssOutsideHeapTrend(samples({ rss: (t) => sawtooth(t) + (t / 60) * 2 * MiB }), WARMUP);
  assert.is(trend.growing, true);
  assert.ok(trend.slopeLowPerHour > 100 * MiB, `slope low ${trend.slopeLowPerHour}`);
});

test('a rise during warm-up only is not growth', () => {
  assert.is(rssOutsideHeapTrend(samples({ rss: (t) => sawtooth(t) + Math.min(t, WARMUP) * 100 }), WARMUP).growing, false);
});

// As in the 30-minute run of 2026-11-25: the V8 heap at 36 MiB, 52 when the young generation doubled,
// 59 with the old generation at its working size, cut to 24 when the server was starved of CPU for a
// moment, then grown back in steps and a slope; RSS follows it each time, 57 MiB above it.
const heapTotal = (t: number) => (t < 130 ? 36 : t < 450 ? 52 : t < 900 ? 59 : t < 1000 ? 24 : t < 1150 ? 40 : 56 + (3 * (t - 1150)) / 650) * MiB;
const withHeap = (t: number) => 57 * MiB + heapTotal(t) + ((t % 40) / 40) * 2 * MiB;

test('RSS that moves up and down with the V8 heap is not growth outside it', () => {
  const run = samples({ rss: withHeap, heapTotal });
  assert.is(rssTrend(run, WARMUP).growing, true); // as read, it looks like growth
  assert.is(rssOutsideHeapTrend(run, WARMUP).growing, false);
});

test('RSS climbing outside a V8 heap that moves up and down is growth', () => {
  const run = samples({ rss: (t) => withHeap(t) + (t / 60) * 2 * MiB, heapTotal });
  assert.is(rssOutsideHeapTrend(run, WARMUP).growing, true);
});

// A one-time rise of 13 MiB at one moment, flat afterwards.
const settlingStep = (at: number) => (t: number) => sawtooth(t) + (t >= at ? 13 * MiB : 0);

test('a one-time step after warm-up that then stays flat is not growth (10-minute run)', () => {
  // A 10-minute run warms up for 120 s; the step comes at 5.5 minutes, as in the run that failed.
  assert.is(rssOutsideHeapTrend(samples({ rss: settlingStep(330), seconds: 600 }), 120).growing, false);
});

test('a one-time step in the middle of a 30-minute run that then stays flat is not growth', () => {
  assert.is(rssOutsideHeapTrend(samples({ rss: settlingStep(900) }), WARMUP).growing, false);
});

test('RSS climbing 2 MiB a minute through a 10-minute run is growth', () => {
  assert.is(rssOutsideHeapTrend(samples({ rss: (t) => sawtooth(t) + (t / 60) * 2 * MiB, seconds: 600 }), 120).growing, true);
});

test('a step that is followed by a steady climb is growth', () => {
  assert.is(rssOutsideHeapTrend(samples({ rss: (t) => settlingStep(900)(t) + Math.max(0, t - 900) * 20 }), WARMUP).growing, true);
});

test('the bottom of each fall of at least 1 MiB is a reading after a major collection; jitter is not', () => {
  const points: Array<[number, number]> = [[0, 10], [1, 12], [2, 11.5], [3, 14], [4, 9], [5, 8], [6, 9], [7, 15], [8, 10], [9, 11]];
  assert.equal(afterFalls(points.map(([t, y]) => [t, y * MiB])), [[5, 8 * MiB], [8, 10 * MiB]]);
});

test('the old generation filling and emptying between collections around a steady live set is not growth', () => {
  const old = oldAfterCollections(samples({ rss: sawtooth }), WARMUP);
  assert.is(old.collections, 5);
  assert.is(old.growing, false);
});

test('live objects that pile up across major collections are growth', () => {
  const old = oldAfterCollections(samples({ rss: sawtooth, oldUsed: (t) => oldSawtooth(t) + (t / 60) * 0.5 * MiB }), WARMUP);
  assert.is(old.growing, true);
});

test('open fds that jitter by a few are not growth, one more fd a minute is', () => {
  const jitter = (t: number) => 48 + ((t * 7) % 5) - 2;
  assert.is(fdTrend(samples({ rss: sawtooth, fds: jitter }), WARMUP).growing, false);
  assert.is(fdTrend(samples({ rss: sawtooth, fds: (t) => jitter(t) + Math.floor(t / 60) }), WARMUP).growing, true);
});

test('too few points give no verdict of growth', () => {
  assert.is(trendOf([[0, 1], [1, 100], [2, 1000]], 1).growing, false);
});

const flat: Trend = { slopePerHour: 0, slopeLowPerHour: 0, firstThirdMedian: 1, lastThirdMedian: 1, tolerance: 1, lateFromS: 1050, lateSlopePerHour: 0, lateSlopeLowPerHour: 0, growing: false };
const steady: AfterCollections = { collections: 5, firstThirdMedian: 1, lastThirdMedian: 1, tolerance: 1, growing: false };
const inputs = (over: Partial<VerdictInputs>): VerdictInputs => ({
  rss: flat,
  rssOutsideHeap: flat,
  oldAfterCollections: steady,
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
const memoryOf = (run: Sample[]) => ({ rss: rssTrend(run, WARMUP), rssOutsideHeap: rssOutsideHeapTrend(run, WARMUP), oldAfterCollections: oldAfterCollections(run, WARMUP) });

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
  assert.is(judge(inputs({ rssOutsideHeap: { ...flat, growing: true } })).ok, false);
  assert.is(judge(inputs({ oldAfterCollections: { ...steady, growing: true } })).ok, false);
  assert.is(judge(inputs({ fds: { ...flat, growing: true } })).ok, false);
  assert.is(judge(inputs({ serverExit: 'exit 1' })).ok, false);
  assert.is(judge(inputs({ harnessProblems: ['starting resolver-paused: kill ESRCH'] })).ok, false);
});

test('a run whose RSS moved with the V8 heap passes, with a note that says so', () => {
  const v = judge(inputs(memoryOf(samples({ rss: withHeap, heapTotal }))));
  assert.is(v.ok, true, v.failures.join('; '));
  assert.match(v.notes.join('\n'), /V8 resizing its heap, not a leak/);
});

test('a run whose RSS stepped once after warm-up and then held passes (10-minute run)', () => {
  const run = samples({ rss: settlingStep(330), seconds: 600 });
  const v = judge(inputs({ rss: rssTrend(run, 120), rssOutsideHeap: rssOutsideHeapTrend(run, 120), oldAfterCollections: oldAfterCollections(run, 120) }));
  assert.is(v.ok, true, v.failures.join('; '));
});

test('a run whose /metrics never gave the V8 heap fails: its memory could not be judged', () => {
  const run = samples({ rss: sawtooth }).map((s) => ({ ...s, heapTotalKiB: null, oldGenerationUsedKiB: null }));
  const v = judge(inputs(memoryOf(run)));
  assert.is(v.ok, false);
  assert.match(v.failures.join('\n'), /V8 heap was missing/);
  assert.match(v.notes.join('\n'), /only 0 major collection/);
});

test('the in-flight gauges, event-loop delay and V8 heap are read from the metrics text', () => {
  const text = [
    '# HELP nettools_http_requests_in_flight Requests being served now.',
    'nettools_http_requests_in_flight 3',
    'nettools_engine_in_flight{engine="dns"} 2',
    'nodejs_eventloop_lag_seconds 0.0021',
    'nodejs_eventloop_lag_p99_seconds 0.0102',
    'nodejs_eventloop_lag_max_seconds 0.0154',
    'nettools_rate_limit_clients 12',
    'nodejs_heap_size_total_bytes 54992896',
    'nodejs_heap_size_used_bytes 24229016',
    'nodejs_heap_space_size_used_bytes{space="new"} 511160',
    'nodejs_heap_space_size_total_bytes{space="new"} 33554432',
    'nodejs_heap_space_size_used_bytes{space="old"} 10323840',
    'nodejs_external_memory_bytes 3410180',
  ].join('\n');
  const m = parseMetrics(text);
  assert.equal(m.inFlight, { nettools_http_requests_in_flight: 3, 'nettools_engine_in_flight{engine="dns"}': 2 });
  assert.ok(Math.abs((m.loopLagP99Ms ?? 0) - 10.2) < 1e-9);
  assert.ok(Math.abs((m.loopLagMaxMs ?? 0) - 15.4) < 1e-9);
  assert.ok(Math.abs((m.loopLagMs ?? 0) - 2.1) < 1e-9);
  assert.equal([m.heapTotalBytes, m.heapUsedBytes, m.externalBytes], [54992896, 24229016, 3410180]);
  assert.equal([m.youngGenerationBytes, m.oldGenerationUsedBytes], [33554432, 10323840]);
});

test.run();
