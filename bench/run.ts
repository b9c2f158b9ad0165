import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fpingRtt, endpointRtt, iputilsFlood, iputilsRtt } from './engines/icmp-references';
import { measureNativeDns, measureNativeIcmp } from './engines/native';
import { measureNodeResolver } from './engines/node-resolver';
import { buildCharts } from './lib/charts';
import { installCleanupHandlers, stopAll, trackDir, wasInterrupted } from './lib/children';
import { runDnsperf } from './lib/dnsperf';
import { BENCH_ZONE, startKnot, type KnotSet } from './lib/knot';
import { gitCommit, machine } from './lib/machine';
import { parseOptions, type BenchOptions } from './lib/options';
import { probe, unavailableReason } from './lib/probe';
import { renderReadmeSection, spliceReadme } from './lib/report';
import { readPeakRssKiB, resetPeakRss } from './lib/rss';
import { SCENARIOS, type Scenario } from './lib/scenarios';
import { startServer, type RunningServer } from './lib/servers';
import { formatCount, formatMicros } from './lib/stats';
import { evaluateTargets } from './lib/targets';
import type { BenchResults, DnsEngineRow, IcmpRow, LoadPoint, ScenarioResult, ServerName, ServerScenarioResult } from './lib/types';
import { loadErrors, requestsPerSecond, runWrk } from './lib/wrk';

// `npm run bench [-- --quick]`: starts Knot resolvers, each server in turn, drives them with wrk,
// measures the engines beside their references, then writes bench/results/ and README's section.

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(ROOT, 'bench', 'results');
const TOOLS = ['wrk', 'knotd', 'kdig', 'dnsperf', 'ping', 'fping'];
const WRK_TIMEOUT_S = 10;

const say = (line: string) => process.stderr.write(`bench: ${line}\n`);

function checkTools(): void {
  const missing = TOOLS.filter((t) => {
    try {
      execFileSync('sh', ['-c', `command -v ${t}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length > 0) throw new Error(`missing ${missing.join(', ')}: run bash bench/ensure-tools.sh (npm run bench does)`);
}

async function measurePoint(server: RunningServer, sc: Scenario, connections: number, opts: BenchOptions, threads: number): Promise<LoadPoint> {
  const rssReset = resetPeakRss(server.pid);
  const run = await runWrk({ url: server.url + sc.path, body: sc.body, connections, threads, durationS: opts.durationS, timeoutS: WRK_TIMEOUT_S });
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
  };
  const e = point.errors;
  say(
    `${server.name} ${sc.name} c=${connections}: ${formatCount(point.requestsPerSecond)} req/s, p50 ${formatMicros(s.latencyUs.p50)}, p99 ${formatMicros(s.latencyUs.p99)}, ` +
      `p99.9 ${formatMicros(s.latencyUs.p999)}, RSS ${point.peakRssKiB ?? '?'} KiB` +
      (e.unexpectedStatus + e.connect + e.read + e.write + e.timeout > 0 ? `, errors ${JSON.stringify(e)}` : ''),
  );
  return point;
}

// All servers run side by side (idle ones cost nothing) and are measured in turn at each connection
// count, so a change in the machine's load during the run hits every server alike instead of
// skewing one ratio.
async function measureScenarios(opts: BenchOptions, knot: KnotSet, threads: number): Promise<ScenarioResult[]> {
  const running = new Map<ServerName, RunningServer>();
  try {
    for (const name of ['nettools', 'baseline', 'ceiling'] as const) running.set(name, await startServer(name, knot.resolversEnv));
    const results: ScenarioResult[] = [];
    for (const sc of SCENARIOS) {
      const outcome = new Map<ServerName, ServerScenarioResult>();
      const points = new Map<ServerName, LoadPoint[]>();
      for (const name of sc.servers) {
        const server = running.get(name) as RunningServer;
        const why = unavailableReason(await probe(server.url, sc.path, sc.body), sc.expectedStatus, sc.expectedCode);
        if (why !== null) {
          say(`${name} ${sc.name}: ${why}`);
          outcome.set(name, { server: name, unavailable: why });
          continue;
        }
        const warm = await runWrk({ url: server.url + sc.path, body: sc.body, connections: 16, threads, durationS: opts.warmupS, timeoutS: WRK_TIMEOUT_S });
        if (!warm.ok) throw new Error(`${name} ${sc.name} warm-up: ${warm.error}`);
        points.set(name, []);
      }
      for (const connections of opts.connections) {
        for (const [name, list] of points) list.push(await measurePoint(running.get(name) as RunningServer, sc, connections, opts, threads));
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
    return results;
  } finally {
    await Promise.all([...running.values()].map((s) => s.stop()));
  }
}

async function measureEngines(opts: BenchOptions, knot: KnotSet, workDir: string): Promise<BenchResults['engines']> {
  const target = knot.servers[0] as KnotSet['servers'][number];
  const dnsOpts = { address: target.address, port: target.port, name: BENCH_ZONE, durationS: opts.engineDurationS, inFlight: opts.dnsInFlight };
  const dns: DnsEngineRow[] = [];
  dns.push({ name: 'native', result: await measureNativeDns(dnsOpts) });
  dns.push({ name: 'dnsperf', result: await runDnsperf({ ...dnsOpts, workDir }) });
  dns.push({ name: 'node-resolver', result: await measureNodeResolver(dnsOpts) });
  for (const row of dns) say(`dns engine ${row.name}: ${row.result.ok ? `${formatCount(row.result.queriesPerSecond)} q/s` : row.result.unavailable}`);

  const icmp: IcmpRow[] = [];
  icmp.push({ name: 'native', result: await measureNativeIcmp({ durationS: opts.engineDurationS, inFlight: opts.icmpInFlight, rttSamples: opts.rttSamples }) });
  const server = await startServer('nettools', knot.resolversEnv);
  try {
    icmp.push({ name: 'nettools-endpoint', result: await endpointRtt(server.url, Math.ceil(opts.rttSamples / 10)) });
  } finally {
    await server.stop();
  }
  icmp.push({ name: 'iputils-ping', result: await iputilsRtt(opts.rttSamples) });
  icmp.push({ name: 'fping', result: await fpingRtt(opts.rttSamples) });
  icmp.push({ name: 'iputils-ping-flood', result: await iputilsFlood(opts.floodCount, opts.engineDurationS * 2) });
  for (const row of icmp) {
    const r = row.result;
    say(`icmp ${row.name}: ${r.ok ? `${r.echoesPerSecond === null ? '' : `${formatCount(r.echoesPerSecond)} echoes/s `}${r.rttMedianUs === null ? '' : `RTT median ${r.rttMedianUs.toFixed(1)} µs`}` : r.unavailable}`);
  }
  return { dns, icmp };
}

function writeResults(results: BenchResults): void {
  mkdirSync(RESULTS, { recursive: true });
  const json = JSON.stringify(results, null, 2) + '\n';
  writeFileSync(path.join(RESULTS, 'latest.json'), json);
  writeFileSync(path.join(RESULTS, `${results.finishedAt.replace(/[:.]/g, '-')}-${results.mode}.json`), json);
  for (const chart of buildCharts(results)) writeFileSync(path.join(RESULTS, chart.name), chart.svg);
  const readme = path.join(ROOT, 'README.md');
  writeFileSync(readme, spliceReadme(readFileSync(readme, 'utf8'), renderReadmeSection(results)));
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  if (typeof opts === 'string') {
    process.stderr.write(`bench: ${opts}\n`);
    process.exit(2);
  }
  installCleanupHandlers();
  const deadline = setTimeout(() => {
    say(`the run exceeded its ${opts.deadlineS} s bound; stopping everything`);
    void stopAll().finally(() => process.exit(1));
  }, opts.deadlineS * 1000);
  deadline.unref();

  checkTools();
  const startedAt = new Date().toISOString();
  const mach = machine();
  // The servers run JavaScript on one thread: leave them a core. With wrk on both cores of a 2-core
  // machine every server measured ~40% slower and the comparison mostly measured the scheduler.
  const threads = Math.max(1, Math.min(4, mach.cores - 1));
  const workDir = trackDir(mkdtempSync(path.join(tmpdir(), `nettools-bench-${process.pid}-`)));
  if (mach.loadAverage1m > mach.cores / 2) {
    say(`warning: load average ${mach.loadAverage1m} on ${mach.cores} cores before the run; other work will skew the numbers`);
  }
  say(`${opts.mode} run: connections ${opts.connections.join(', ')}, ${opts.durationS} s each, wrk ${threads} threads`);
  const knot = await startKnot(opts.resolvers);
  say(`Knot resolvers: ${knot.resolversEnv}`);

  const scenarios = await measureScenarios(opts, knot, threads);
  const engines = await measureEngines(opts, knot, workDir);
  await knot.stop();

  const partial = { scenarios, engines };
  const { commit, dirty } = gitCommit(ROOT);
  const results: BenchResults = {
    startedAt,
    finishedAt: new Date().toISOString(),
    mode: opts.mode,
    commit,
    dirty,
    machine: mach,
    settings: { connections: opts.connections, durationS: opts.durationS, wrkThreads: threads, resolvers: knot.servers.map((s) => `${s.id}=${s.address}`) },
    ...partial,
    targets: evaluateTargets(partial),
  };
  writeResults(results);
  process.stdout.write('\nTargets:\n');
  for (const t of results.targets) process.stdout.write(`  [${t.status}] ${t.description}\n      ${t.detail}\n`);
  process.stdout.write(`\nResults: bench/results/latest.json, charts in bench/results/, README.md "Benchmarks" updated.\n`);
}

main()
  .then(() => stopAll())
  .then(() => process.exit(0))
  .catch(async (err: unknown) => {
    if (wasInterrupted()) return; // the signal handler is already stopping everything and will exit
    process.stderr.write(`bench: failed: ${(err as Error).stack ?? String(err)}\n`);
    await stopAll();
    process.exit(1);
  });
