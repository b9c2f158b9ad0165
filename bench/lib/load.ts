import { pairBlocked, roundOrder } from './pairs';
import { probe, unavailableReason } from './probe';
import type { KnotSet } from './knot';
import { say } from './log';
import { busyPercent, cpuPerRequestUs, cpuUse, readCpuTicks } from './cpu';
import { readPeakRssKiB, resetPeakRss } from './rss';
import { PAIRS, SCENARIOS, type Pair, type Scenario } from './scenarios';
import { startServer, type RunningServer } from './servers';
import { startBenchRedis, type BenchRedis } from './redis';
import { formatCount, formatMicros } from './stats';
import { brokenResponses, REFERENCE_CONNECTIONS } from './targets';
import type { LoadPoint, PairResult, PairRuns, ScenarioResult, ServerName, ServerScenarioResult } from './types';
import { loadErrors, requestsPerSecond, runWrk } from './wrk';

export interface LoadSettings {
  connections: number[];
  durationS: number;
  warmupS: number;
  threads: number;
  pairRounds: number;
  pairRunS: number;
  // Pairs run at REFERENCE_CONNECTIONS (the targets' count) unless told otherwise (bench:revisions).
  pairConnections?: number;
}

// Generous: a request slower than this is counted as a wrk timeout and left out of the latencies.
const WRK_TIMEOUT_S = 10;

async function measurePoint(server: RunningServer, sc: Scenario, connections: number, opts: LoadSettings, resolverPids: number[]): Promise<LoadPoint> {
  const rssReset = resetPeakRss(server.pid);
  const cpuBefore = readCpuTicks(server.pid);
  const resolversBefore = resolverPids.map(readCpuTicks);
  const started = performance.now();
  const run = await runWrk({ url: server.url + sc.path, body: sc.body, connections, threads: opts.threads, durationS: opts.durationS, timeoutS: WRK_TIMEOUT_S, ...withHeader(server) });
  const wallS = (performance.now() - started) / 1000;
  const cpuAfter = readCpuTicks(server.pid);
  const resolversAfter = resolverPids.map(readCpuTicks);
  if (!run.ok) throw new Error(`${server.name} ${sc.name} at ${connections} connections: ${run.error}`);
  const s = run.summary;
  const point: LoadPoint = {
    connections,
    durationS: s.durationUs / 1e6,
    requests: s.requests,
    requestsPerSecond: requestsPerSecond(s),
    latencyUs: s.latencyUs,
    errors: loadErrors(s, sc.expectedStatus),
    peakRssKiB: rssReset ? readPeakRssKiB(server.pid) : null,
    cpu: cpuUse(cpuBefore, cpuAfter, s.requests, wallS),
    resolversBusyPercent: resolverPids.length > 0 ? busyPercent(resolversBefore, resolversAfter, wallS) : null,
  };
  const cpu = point.cpu === null ? '?' : `${cpuPerRequestUs(point.cpu).toFixed(1)} µs/req, busy ${point.cpu.busyPercent.toFixed(0)}%`;
  const e = point.errors;
  say(
    `${server.name} ${sc.name} c=${connections}: ${formatCount(point.requestsPerSecond)} req/s, p50 ${formatMicros(s.latencyUs.p50)}, p99 ${formatMicros(s.latencyUs.p99)}, ` +
      `p99.9 ${formatMicros(s.latencyUs.p999)}, RSS ${point.peakRssKiB ?? '?'} KiB, CPU ${cpu}` +
      (point.resolversBusyPercent === null ? '' : `, resolvers busy ${point.resolversBusyPercent.toFixed(0)}%`) +
      (e.unexpectedStatus + e.connect + e.read + e.write + e.timeout > 0 ? `, errors ${JSON.stringify(e)}` : ''),
  );
  return point;
}

function withHeader(server: RunningServer): { header?: string } {
  return server.header === undefined ? {} : { header: server.header };
}

// Two servers, alternating, at the reference connection count: two single runs back to back differ by
// more on the shared VM than the costs these comparisons look for. Each round pairs one run of each,
// in the order roundOrder gives. A run with bad responses ends the
// pair, which then says so instead of standing for a speed.
export async function measurePair(running: Map<ServerName, RunningServer>, sc: Scenario, pair: Pair, opts: LoadSettings): Promise<PairResult> {
  const { first, second } = pair;
  const connections = opts.pairConnections ?? REFERENCE_CONNECTIONS;
  const runs: PairRuns = { scenario: sc.name, first, second, connections, durationS: opts.pairRunS, firstRuns: [], secondRuns: [] };
  const settings = { ...opts, durationS: opts.pairRunS };
  for (let round = 0; round < opts.pairRounds; round++) {
    for (const which of roundOrder(round)) {
      const [name, list] = which === 'first' ? [first, runs.firstRuns] : [second, runs.secondRuns];
      const p = await measurePoint(running.get(name) as RunningServer, sc, connections, settings, []);
      const broken = brokenResponses(p.errors);
      if (broken > 0) return { scenario: sc.name, first, second, unavailable: `${name} ${sc.name} run ${round + 1} of ${first} vs ${second} had ${broken} bad responses or socket errors` };
      list.push({ requestsPerSecond: p.requestsPerSecond, cpuUsPerRequest: p.cpu === null ? null : cpuPerRequestUs(p.cpu) });
    }
  }
  return runs;
}

// Each pair whose two servers were measured in its scenario; otherwise the reason one was not.
async function measurePairs(running: Map<ServerName, RunningServer>, results: ScenarioResult[], opts: LoadSettings): Promise<PairResult[]> {
  const out: PairResult[] = [];
  for (const pair of PAIRS) {
    const sc = SCENARIOS.find((s) => s.name === pair.scenario) as Scenario;
    const why = pairBlocked(pair, results);
    out.push(why === null ? await measurePair(running, sc, pair, opts) : { ...pair, unavailable: why });
  }
  return out;
}

// All servers run side by side (idle ones cost nothing) and are measured in turn at each connection
// count, so a change in the machine's load during the run hits every server alike instead of
// skewing one ratio.
export async function measureScenarios(opts: LoadSettings, knot: KnotSet): Promise<{ scenarios: ScenarioResult[]; pairs: PairResult[] }> {
  const running = new Map<ServerName, RunningServer>();
  let redis: BenchRedis | null = null;
  try {
    redis = await startBenchRedis();
    for (const name of ['nettools', 'nettools-nometrics', 'nettools-keyed', 'nettools-workers2', 'nettools-redis', 'baseline', 'ceiling', 'ceiling-identical'] as const) running.set(name, await startServer(name, knot.resolversEnv, redis.url));
    const results: ScenarioResult[] = [];
    for (const sc of SCENARIOS) {
      const outcome = new Map<ServerName, ServerScenarioResult>();
      const points = new Map<ServerName, LoadPoint[]>();
      for (const name of sc.servers) {
        const server = running.get(name) as RunningServer;
        // A body with a fresh-name slot is probed with one name of the same shape.
        const why = unavailableReason(await probe(server.url, sc.path, sc.body.replace('{fresh}', 'probe'), server.header), sc.expectedStatus, sc.expectedCode);
        if (why !== null) {
          say(`${name} ${sc.name}: ${why}`);
          outcome.set(name, { server: name, unavailable: why });
          continue;
        }
        const warm = await runWrk({ url: server.url + sc.path, body: sc.body, connections: 16, threads: opts.threads, durationS: opts.warmupS, timeoutS: WRK_TIMEOUT_S, ...withHeader(server) });
        if (!warm.ok) throw new Error(`${name} ${sc.name} warm-up: ${warm.error}`);
        points.set(name, []);
      }
      for (const connections of opts.connections) {
        const resolverPids = sc.path === '/api/tools/dns' ? knot.servers.map((k) => k.pid) : [];
        for (const [name, list] of points) list.push(await measurePoint(running.get(name) as RunningServer, sc, connections, opts, resolverPids));
      }
      for (const [name, list] of points) outcome.set(name, { server: name, points: list });
      results.push({
        scenario: sc.name,
        description: sc.description,
        body: sc.body,
        expectedStatus: sc.expectedStatus,
        servers: sc.servers.map((name) => outcome.get(name) as ServerScenarioResult),
      });
    }
    return { scenarios: results, pairs: await measurePairs(running, results, opts) };
  } finally {
    await Promise.all([...running.values()].map((s) => s.stop()));
    await redis?.stop();
  }
}
