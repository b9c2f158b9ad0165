import type { BenchResults, LoadPoint, PairRun, PairRuns, ScenarioName, ServerName, ServerScenarioResult } from '../../bench/lib/types';

export function point(connections: number, rps: number, p99: number, errors: Partial<LoadPoint['errors']> = {}): LoadPoint {
  return {
    connections,
    durationS: 10,
    requests: rps * 10,
    requestsPerSecond: rps,
    latencyUs: { min: 10, mean: p99 / 4, max: p99 * 3, p50: p99 / 5, p90: p99 / 2, p99, p999: p99 * 2 },
    errors: { connect: 0, read: 0, write: 0, timeout: 0, unexpectedStatus: 0, ...errors },
    peakRssKiB: 65536,
    cpu: { userUsPerRequest: 600_000 / rps, systemUsPerRequest: 400_000 / rps, busyPercent: 100 },
    resolversBusyPercent: null,
  };
}

export const measured = (server: ServerScenarioResult['server'], points: LoadPoint[]): ServerScenarioResult => ({ server, points });
export const missing = (server: ServerScenarioResult['server'], why: string): ServerScenarioResult => ({ server, unavailable: why });

// Alternating runs of plain nettools and `second`, each given as [requests/s, µs of CPU per request].
export function pair(scenario: ScenarioName, second: ServerName, first: Array<[number, number]>, seconds: Array<[number, number]>): PairRuns {
  const run = ([requestsPerSecond, cpuUsPerRequest]: [number, number]): PairRun => ({ requestsPerSecond, cpuUsPerRequest });
  return { scenario, first: 'nettools', second, connections: 64, durationS: 2, firstRuns: first.map(run), secondRuns: seconds.map(run) };
}

// A run where every number is present and every target is met.
export function fullResults(): BenchResults {
  return {
    startedAt: '2026-11-22T12:00:00.000Z',
    finishedAt: '2026-11-22T12:06:00.000Z',
    mode: 'full',
    commit: '0123456789abcdef0123456789abcdef01234567',
    dirty: false,
    machine: { cpuModel: 'Test CPU', cores: 2, memoryMiB: 4096, kernel: '6.1.0', node: 'v20.0.0', loadAverage1m: 0.1 },
    settings: { connections: [1, 64], durationS: 10, wrkThreads: 1, resolvers: ['knot1=127.0.0.1', 'knot2=127.0.0.2'] },
    scenarios: [
      {
        scenario: 'validation',
        description: 'validation error',
        body: '{}',
        expectedStatus: 400,
        servers: [
          measured('nettools', [point(1, 20_000, 100), point(64, 120_000, 900)]),
          measured('baseline', [point(1, 10_000, 200), point(64, 30_000, 3000)]),
          measured('ceiling', [point(1, 30_000, 80), point(64, 150_000, 700)]),
          measured('nettools-nometrics', [point(1, 20_300, 100), point(64, 122_000, 880)]),
          measured('ceiling-identical', [point(1, 25_000, 90), point(64, 140_000, 750)]),
          measured('nettools-redis', [point(1, 18_000, 110), point(64, 108_000, 1000)]),
        ],
      },
      {
        scenario: 'dns',
        description: 'dns',
        body: '{}',
        expectedStatus: 200,
        servers: [
          measured('nettools', [point(1, 9000, 500), point(64, 40_000, 4000), point(256, 41_000, 60_000)]),
          measured('baseline', [point(1, 3000, 900), point(64, 6000, 38_000)]),
          measured('nettools-redis', [point(1, 8000, 550), point(64, 36_000, 4500)]),
        ],
      },
      {
        scenario: 'ping',
        description: 'ping',
        body: '{}',
        expectedStatus: 200,
        servers: [measured('nettools', [point(1, 8000, 300), point(64, 30_000, 4000)]), measured('baseline', [point(1, 400, 8000), point(64, 500, 1_500_000)])],
      },
    ],
    engines: {
      dns: [
        { name: 'native', result: { ok: true, queriesPerSecond: 270_000, completed: 1_350_000, failed: 0, inFlight: 100, durationS: 5 } },
        { name: 'dnsperf', result: { ok: true, queriesPerSecond: 300_000, completed: 1_500_000, failed: 0, inFlight: 100, durationS: 5 } },
        { name: 'node-resolver', result: { ok: true, queriesPerSecond: 80_000, completed: 400_000, failed: 0, inFlight: 100, durationS: 5 } },
      ],
      icmp: [
        { name: 'native', result: { ok: true, echoesPerSecond: 100_000, rttMedianUs: 20, samples: 20 } },
        { name: 'nettools-endpoint', result: { ok: true, echoesPerSecond: null, rttMedianUs: 25, samples: 20 } },
        { name: 'iputils-ping', result: { ok: true, echoesPerSecond: null, rttMedianUs: 13, samples: 20 } },
        { name: 'fping', result: { ok: true, echoesPerSecond: null, rttMedianUs: 12, samples: 20 } },
      ],
    },
    pairs: [
      // Medians: 8.4 vs 8.2 µs (2.4% cost), 120.0k vs 122.0k req/s.
      pair('validation', 'nettools-nometrics', [[120_000, 8.4], [118_000, 8.5], [121_000, 8.3]], [[122_000, 8.2], [119_000, 8.3], [123_000, 8.1]]),
      // Medians: 8.3 vs 8.6 µs (3.6% cost), 120.0k vs 117.0k req/s.
      pair('validation', 'nettools-keyed', [[120_000, 8.3], [118_000, 8.4], [121_000, 8.2]], [[117_000, 8.6], [119_000, 8.5], [116_000, 8.7]]),
      // Medians: 120.0k vs 108.0k req/s (10% fewer).
      pair('validation', 'nettools-redis', [[120_000, 8.3], [118_000, 8.4], [121_000, 8.2]], [[108_000, 9.3], [107_000, 9.4], [109_000, 9.2]]),
      // Medians: 40.0k vs 36.0k req/s (10% fewer).
      pair('dns', 'nettools-redis', [[40_000, 25.0], [39_000, 25.5], [41_000, 24.5]], [[36_000, 27.8], [35_000, 28.5], [37_000, 27.0]]),
      // Rounds' ratios 4x, 4x, 4x: medians 120.0k vs 30.0k req/s.
      pair('validation', 'baseline', [[120_000, 8.3], [116_000, 8.4], [124_000, 8.2]], [[30_000, 33.0], [29_000, 34.0], [31_000, 32.0]]),
      // Rounds' CPU ratios 15%, 15%, 15%: medians 25.0 vs 166.7 µs per request.
      pair('dns', 'baseline', [[40_000, 25.0], [39_000, 25.5], [41_000, 24.5]], [[6_000, 166.7], [5_900, 170.0], [6_100, 163.4]]),
      // Rounds' ratios 86%, 85%, 87%: medians 120.0k vs 140.0k req/s.
      pair('validation', 'ceiling-identical', [[120_000, 8.3], [119_000, 8.4], [122_000, 8.2]], [[140_000, 7.0], [140_000, 7.0], [140_000, 7.0]]),
    ],
    targets: [],
  };
}
