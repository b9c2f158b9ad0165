import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resultJson } from '../../bench/soak/result-json';
import type { SoakResult } from '../../bench/soak/types';

const flat = { slopePerHour: 0, slopeLowPerHour: 0, firstThirdMedian: 1, lastThirdMedian: 1, tolerance: 1, lateFromS: 2, lateSlopePerHour: 0, lateSlopeLowPerHour: 0, growing: false };
const result: SoakResult = {
  harnessProblems: [],
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:30:00.000Z',
  minutes: 30,
  warmupS: 300,
  commit: 'abc',
  machine: { cpuModel: 'x', cores: 2, memoryMiB: 1, kernel: 'k', node: 'v20', loadAverage1m: 0 },
  server: { NETTOOLS_RATE_LIMIT: '30/60s' },
  lanes: { ping: { '200': 3 } },
  totals: { requests: 3, perSecond: 0.1, status500: 0 },
  inFlightAtEnd: { nettools_http_requests_in_flight: 1 },
  idleInFlight: { nettools_http_requests_in_flight: 1 },
  trend: { rss: flat, rssOutsideHeap: flat, oldAfterCollections: { collections: 5, firstThirdMedian: 1, lastThirdMedian: 1, tolerance: 1, growing: false }, fds: flat },
  verdict: { ok: true, failures: [], notes: [] },
  samples: [1, 2, 3].map((t) => ({ t, rssKiB: 100, fds: 40, heapTotalKiB: 50, heapUsedKiB: 30, externalKiB: 3, youngGenerationKiB: 16, oldGenerationUsedKiB: 10, inFlight: { a: 1 }, loopLagP99Ms: 10, loopLagMaxMs: 11, loopLagMs: 1, requests: 5, faults: t === 2 ? ['resolver-paused'] : [] })),
};

test('the soak results file parses back to the same result, one line per sample', () => {
  const text = resultJson(result);
  assert.equal(JSON.parse(text), result);
  const sampleLines = text.split('\n').filter((l) => l.startsWith('  {"t":'));
  assert.is(sampleLines.length, 3);
});

test('a run without samples still writes valid JSON', () => {
  assert.equal(JSON.parse(resultJson({ ...result, samples: [] })).samples, []);
});

test.run();
