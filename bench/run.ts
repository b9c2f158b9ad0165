import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { measureEngines } from './engines/measure';
import { buildCharts } from './lib/charts';
import { installCleanupHandlers, runBench, stopAll, trackDir } from './lib/children';
import { startKnot } from './lib/knot';
import { measureScenarios } from './lib/load';
import { say } from './lib/log';
import { checkTools } from './lib/tools';
import { gitCommit, machine } from './lib/machine';
import { parseOptions } from './lib/options';
import { renderReadmeSection, spliceReadme } from './lib/report';
import { evaluateTargets } from './lib/targets';
import type { BenchResults } from './lib/types';

// `npm run bench [-- --quick]`: starts Knot resolvers and the servers, drives the servers with wrk,
// measures the engines beside their references, then writes bench/results/ and bench/README.md's section.

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(ROOT, 'bench', 'results');
const TOOLS = ['wrk', 'knotd', 'kdig', 'dnsperf', 'ping', 'fping', 'redis-server'];

function writeResults(results: BenchResults): void {
  mkdirSync(RESULTS, { recursive: true });
  const json = JSON.stringify(results, null, 2) + '\n';
  writeFileSync(path.join(RESULTS, 'latest.json'), json);
  writeFileSync(path.join(RESULTS, `${results.finishedAt.replace(/[:.]/g, '-')}-${results.mode}.json`), json);
  for (const chart of buildCharts(results)) writeFileSync(path.join(RESULTS, chart.name), chart.svg);
  const readme = path.join(ROOT, 'bench', 'README.md');
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

  checkTools(TOOLS, 'run bash bench/ensure-tools.sh (npm run bench does)');
  const startedAt = new Date().toISOString();
  const { commit, dirty } = gitCommit(ROOT);
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

  const load = await measureScenarios(
    { connections: opts.connections, durationS: opts.durationS, warmupS: opts.warmupS, threads, pairRounds: opts.pairRounds, pairRunS: opts.pairRunS },
    knot,
  );
  const engines = await measureEngines(opts, knot, workDir);
  await knot.stop();

  const partial = { ...load, engines };
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
  process.stdout.write(`\nResults: bench/results/latest.json, charts in bench/results/, bench/README.md updated.\n`);
}

runBench(main);
