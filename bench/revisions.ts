import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installCleanupHandlers, runBench, stopAll } from './lib/children';
import { startKnot } from './lib/knot';
import { measurePair } from './lib/load';
import { say } from './lib/log';
import { DUMPS } from './lib/instruction-count';
import { inOwnNetns, rerunInOwnNetns } from './lib/own-netns';
import { gitCommit, machine } from './lib/machine';
import { probe, unavailableReason } from './lib/probe';
import { buildRevision, workingTreeBuild, type RevisionBuild } from './lib/revision-builds';
import { countRevisions, formatInstructionTable } from './lib/revision-instructions';
import { parseRevisionOptions, type RevisionOptions } from './lib/revision-options';
import { formatRevisionTable, revisionRows } from './lib/revision-table';
import { SCENARIOS, type Pair, type Scenario } from './lib/scenarios';
import { startNettoolsFrom, type RunningServer } from './lib/servers';
import { checkTools } from './lib/tools';
import type { PairResult, ServerName } from './lib/types';
import { runWrk } from './lib/wrk';

// `npm run bench:revisions -- <base-rev> [<other-rev>]`: two builds of nettools side by side on loopback,
// against the same loopback Knot resolvers, in alternating rounds per scenario; reports each one's median
// CPU per request and the ratio other ÷ base. Writes bench/results/revisions-*.json. With --instructions,
// each build's instructions per request under callgrind instead (revisions-instructions-*.json).

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(ROOT, 'bench', 'results');

async function measureScenario(running: Map<ServerName, RunningServer>, sc: Scenario, opts: RevisionOptions, threads: number): Promise<PairResult> {
  const pair: Pair = { scenario: sc.name, first: 'nettools', second: 'nettools-other' };
  for (const server of running.values()) {
    const why = unavailableReason(await probe(server.url, sc.path, sc.body.replace('{fresh}', 'probe')), sc.expectedStatus, sc.expectedCode);
    if (why !== null) return { ...pair, unavailable: `${server.name} ${sc.name}: ${why}` };
    const warm = await runWrk({ url: server.url + sc.path, body: sc.body, connections: 16, threads, durationS: opts.warmupS, timeoutS: 10 });
    if (!warm.ok) return { ...pair, unavailable: `${server.name} ${sc.name} warm-up: ${warm.error}` };
  }
  const settings = { connections: [], durationS: opts.runS, warmupS: opts.warmupS, threads, pairRounds: opts.rounds, pairRunS: opts.runS, pairConnections: opts.connections };
  return measurePair(running, sc, pair, settings);
}

function builds(opts: RevisionOptions): { base: RevisionBuild; other: RevisionBuild } {
  const base = buildRevision(ROOT, opts.base);
  if (opts.same) return { base, other: { ...base, label: `${opts.base} (again)` } };
  if (opts.other !== null) return { base, other: buildRevision(ROOT, opts.other) };
  const { commit, dirty } = gitCommit(ROOT);
  return { base, other: workingTreeBuild(ROOT, commit, dirty) };
}

const label = (b: RevisionBuild) => b.commit.slice(0, 7) + (b.dirty ? '+' : '');
// Where a build lives is this machine's business, not the record's.
const side = ({ label, commit, dirty }: RevisionBuild) => ({ label, commit, dirty });

function writeRecord(kind: string, record: { finishedAt: string }): string {
  mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `${kind}-${record.finishedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(record, null, 2) + '\n');
  return path.relative(ROOT, file);
}

async function countMain(base: RevisionBuild, other: RevisionBuild, opts: RevisionOptions): Promise<void> {
  checkTools(['valgrind', 'callgrind_control', 'knotd', 'kdig', 'unshare', 'ip'], 'run bash bench/ensure-tools.sh');
  // The builds are made (or found) out here, where npm can reach its registry; the count runs in there.
  if (!inOwnNetns()) process.exit(rerunInOwnNetns());
  const before = machine();
  say(`${base.label} (${base.commit.slice(0, 12)}) vs ${other.label} (${other.commit.slice(0, 12)}${other.dirty ? ', with uncommitted changes' : ''}): instructions per request under callgrind, ${opts.warmupRequests} warm-up requests, segments of ${opts.requests.join(' and ')}`);
  const knot = await startKnot(2);
  const rows = await countRevisions(base, other, opts, knot.resolversEnv);
  await knot.stop();
  const finishedAt = new Date().toISOString();
  const file = writeRecord('revisions-instructions', { finishedAt, base: side(base), other: side(other), same: opts.same, machine: before, warmupRequests: opts.warmupRequests, requests: opts.requests, limit: opts.limit, rows } as { finishedAt: string });
  process.stdout.write(formatInstructionTable(rows, opts.same ? `${label(base)} (a)` : label(base), opts.same ? `${label(other)} (b)` : label(other), opts.limit) + '\n');
  process.stdout.write(`${file}; each segment's dump is in ${DUMPS}\n`);
}

async function main(): Promise<void> {
  const opts = parseRevisionOptions(process.argv.slice(2));
  if (typeof opts === 'string') {
    process.stderr.write(`bench: ${opts}\n`);
    process.exit(2);
  }
  installCleanupHandlers();
  const { base, other } = builds(opts);
  if (opts.instructions) return countMain(base, other, opts);
  checkTools(['wrk', 'knotd', 'kdig', 'git', 'npm'], 'run bash bench/ensure-tools.sh');
  // Bounds the measuring, not the builds: each scenario's warm-ups, rounds and probes, with room to spare.
  const boundS = opts.scenarios.length * (2 * opts.warmupS + 2 * opts.rounds * (opts.runS + 1) + 30);
  const deadline = setTimeout(() => {
    say(`the run exceeded its ${boundS} s bound; stopping everything`);
    void stopAll().finally(() => process.exit(1));
  }, boundS * 1000);
  deadline.unref();
  const before = machine();
  // The servers run JavaScript on one thread each: wrk gets the cores beyond the first, as in npm run bench.
  const threads = Math.max(1, Math.min(4, before.cores - 1));
  say(`${base.label} (${base.commit.slice(0, 12)}) vs ${other.label} (${other.commit.slice(0, 12)}${other.dirty ? ', with uncommitted changes' : ''}): ${opts.rounds} rounds of ${opts.runS} s at ${opts.connections} connections, load average ${before.loadAverage1m}`);
  const knot = await startKnot(2);
  const running = new Map<ServerName, RunningServer>();
  running.set('nettools', await startNettoolsFrom('nettools', base.entry, knot.resolversEnv));
  running.set('nettools-other', await startNettoolsFrom('nettools-other', other.entry, knot.resolversEnv));
  const pairs: PairResult[] = [];
  for (const name of opts.scenarios) pairs.push(await measureScenario(running, SCENARIOS.find((s) => s.name === name) as Scenario, opts, threads));
  await Promise.all([...running.values()].map((s) => s.stop()));
  await knot.stop();
  const rows = revisionRows(pairs, opts.limit);
  const finishedAt = new Date().toISOString();
  const loadAfter = machine().loadAverage1m;
  const record = { finishedAt, base: side(base), other: side(other), same: opts.same, machine: before, loadAverage1mAfter: loadAfter, rounds: opts.rounds, runS: opts.runS, connections: opts.connections, limit: opts.limit, rows, pairs };
  const file = writeRecord('revisions', record);
  process.stdout.write(formatRevisionTable(rows, opts.same ? `${label(base)} (a)` : label(base), opts.same ? `${label(other)} (b)` : label(other), opts.limit) + '\n');
  process.stdout.write(`load average ${before.loadAverage1m} before, ${loadAfter} after; ${file}\n`);
}

runBench(main);
