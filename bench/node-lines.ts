import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installCleanupHandlers, runBench } from './lib/children';
import { startKnot } from './lib/knot';
import { measurePair } from './lib/load';
import { say } from './lib/log';
import { gitCommit, machine } from './lib/machine';
import { formatNodeLineRow, nodeLineRows } from './lib/node-lines';
import { parseOptions } from './lib/options';
import { probe, unavailableReason } from './lib/probe';
import { SCENARIOS, type Pair, type Scenario } from './lib/scenarios';
import { startServer, type RunningServer } from './lib/servers';
import { checkTools } from './lib/tools';
import type { PairResult, ServerName } from './lib/types';
import { runWrk } from './lib/wrk';

// `npm run bench:node-lines [-- --quick]`: this clone's nettools on Node 24 (built and served in the
// Debian 13 root of .ci/debian13.sh) beside the same code on this machine's Node 20, in the validation,
// dns and ping scenarios, alternating rounds as the bench's pairs. Writes bench/results/node-lines-*.json.

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(ROOT, 'bench', 'results');
const SCENARIO_NAMES = ['validation', 'dns', 'ping'] as const;

async function measureScenario(running: Map<ServerName, RunningServer>, sc: Scenario, settings: Parameters<typeof measurePair>[3]): Promise<PairResult> {
  const pair: Pair = { scenario: sc.name, first: 'nettools', second: 'nettools-node24' };
  for (const server of running.values()) {
    const why = unavailableReason(await probe(server.url, sc.path, sc.body.replace('{fresh}', 'probe')), sc.expectedStatus, sc.expectedCode);
    if (why !== null) return { ...pair, unavailable: `${server.name} ${sc.name}: ${why}` };
    const warm = await runWrk({ url: server.url + sc.path, body: sc.body, connections: 16, threads: settings.threads, durationS: settings.warmupS, timeoutS: 10 });
    if (!warm.ok) return { ...pair, unavailable: `${server.name} ${sc.name} warm-up: ${warm.error}` };
  }
  return measurePair(running, sc, pair, settings);
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  if (typeof opts === 'string') throw new Error(opts);
  installCleanupHandlers();
  checkTools(['wrk', 'knotd', 'kdig'], 'run bash bench/ensure-tools.sh');
  say('building this clone in the Debian 13 root (.ci/debian13.sh --build)');
  execFileSync('bash', [path.join(ROOT, '.ci', 'debian13.sh'), '--build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const mach = machine();
  const settings = { connections: [], durationS: opts.pairRunS, warmupS: opts.warmupS, threads: Math.max(1, Math.min(4, mach.cores - 1)), pairRounds: opts.pairRounds, pairRunS: opts.pairRunS };
  const knot = await startKnot(opts.resolvers);
  const running = new Map<ServerName, RunningServer>();
  for (const name of ['nettools', 'nettools-node24'] as const) running.set(name, await startServer(name, knot.resolversEnv));
  const pairs: PairResult[] = [];
  for (const name of SCENARIO_NAMES) pairs.push(await measureScenario(running, SCENARIOS.find((s) => s.name === name) as Scenario, settings));
  await Promise.all([...running.values()].map((s) => s.stop()));
  await knot.stop();
  const rows = nodeLineRows(pairs);
  const { commit, dirty } = gitCommit(ROOT);
  const record = { finishedAt: new Date().toISOString(), mode: opts.mode, commit, dirty, machine: mach, rounds: opts.pairRounds, runS: opts.pairRunS, rows, pairs };
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(path.join(RESULTS, `node-lines-${record.finishedAt.replace(/[:.]/g, '-')}-${opts.mode}.json`), JSON.stringify(record, null, 2) + '\n');
  for (const row of rows) process.stdout.write(formatNodeLineRow(row) + '\n');
}

runBench(main);
