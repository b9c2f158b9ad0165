// The cost half of the tcp and http benches: the nettools server (its own process, as deployed) answers
// wrk's POST checks for a bounded time, and its CPU time over them is read from /proc; the checks it made
// and how they ended come from its own /metrics. The checks turn over the target's ports
// (bench/wrk/tcp.lua): the per-target budget is per address and port, and its ceiling (100000 a minute)
// is below what one port would take here.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { stopChild, track } from './children';
import { CLOCK_TICKS_PER_SECOND, readCpuTicks } from './cpu';
import { accepts, freePort } from './ports';
import { nettoolsEnv, SERVER_NODE_ARGS } from './servers';
import { checkCost, type CheckCost } from './tcp-stats';
import { requestsPerSecond, runWrk, type WrkSummary } from './wrk';

const MAIN = path.resolve(__dirname, '..', '..', 'src', 'main.js');
const SCRIPT = path.resolve(__dirname, '..', '..', '..', 'bench', 'wrk', 'tcp.lua');

export interface LoadServer {
  pid: number;
  url: string;
  stop(): Promise<void>;
}

// `env`: settings beside the bench's own (e.g. NETTOOLS_TLS_CA_FILE for a test CA); BENCH_SERVER_NODE_ARGS
// as for the main bench's servers (`--cpu-prof` to profile the checks).
export async function startLoadServer(env: Record<string, string> = {}): Promise<LoadServer> {
  const port = await freePort();
  // No name is asked: every target is an IP literal. The resolver is a loopback address all the same.
  const settings = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...nettoolsEnv(port, 'none=127.0.0.1:9'), NETTOOLS_TARGET_CONNECTIONS_PER_MINUTE: '100000', ...env };
  const child = track(spawn(process.execPath, [...SERVER_NODE_ARGS, MAIN], { env: settings, stdio: ['ignore', 'ignore', 'inherit'] }), 'nettools');
  for (let i = 0; i < 200 && !(await accepts(port)); i++) {
    if (child.exitCode !== null) throw new Error(`nettools exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { pid: child.pid as number, url: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

export interface CheckLoad {
  tool: string; // POST /api/tools/<tool>
  body: string; // with "{port}" where each request's port goes
  ports: number[];
  outcomes(metrics: string): Record<string, number>; // the server's checks so far, by how they ended
  counted: string; // the outcome a check must have to count
  durationS: number;
  connections: number;
}

export interface LoadResult {
  cost: CheckCost | null;
  wrk: WrkSummary;
  checksPerSecond: number;
  outcomes: Record<string, number>; // the server's checks over the run, by outcome
}

async function outcomes(server: LoadServer, load: CheckLoad): Promise<Record<string, number>> {
  return load.outcomes(await (await fetch(`${server.url}/metrics`)).text());
}

export async function loadChecks(server: LoadServer, load: CheckLoad): Promise<LoadResult> {
  const before = { ticks: readCpuTicks(server.pid), outcomes: await outcomes(server, load) };
  const run = await runWrk({ url: `${server.url}/api/tools/${load.tool}`, body: load.body, connections: load.connections, threads: 1, durationS: load.durationS, timeoutS: 10, script: SCRIPT, scriptArgs: [load.ports.join(',')] });
  const ticksAfter = readCpuTicks(server.pid);
  if (!run.ok) throw new Error(run.error);
  const after = await outcomes(server, load);
  const made = Object.fromEntries(Object.entries(after).map(([outcome, n]) => [outcome, n - (before.outcomes[outcome] ?? 0)]).filter(([, n]) => (n as number) > 0));
  const ticks = before.ticks === null || ticksAfter === null ? { user: 0, system: 0 } : { user: ticksAfter.user - before.ticks.user, system: ticksAfter.system - before.ticks.system };
  return { cost: checkCost(ticks, CLOCK_TICKS_PER_SECOND, made[load.counted] ?? 0), wrk: run.summary, checksPerSecond: requestsPerSecond(run.summary), outcomes: made };
}

// The line a bench prints of one load run: the rate, the checks by outcome, the server's CPU per check.
export function loadLine(where: string, r: LoadResult, counted: string): string {
  const us = (x: number) => `${x.toFixed(1)} µs`;
  const cost = r.cost === null ? 'no CPU reading' : `${us(r.cost.cpuUsPerCheck)} server CPU per check (${us(r.cost.systemUsPerCheck)} of it system) = ${Math.round(r.cost.checksPerCoreSecond)} checks/s per core`;
  const e = r.wrk.errors;
  const failed = e.connect + e.read + e.write + e.status + e.timeout;
  return `${where} load: ${Math.round(r.checksPerSecond)} checks/s for ${(r.wrk.durationUs / 1e6).toFixed(1)} s, ${counted} ${JSON.stringify(r.outcomes)}${failed > 0 ? `, wrk errors ${JSON.stringify(e)}` : ''}: ${cost}`;
}
