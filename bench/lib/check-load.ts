// The cost half of the tcp bench: the nettools server (its own process, as deployed) answers wrk's POST
// /api/tools/tcp checks for a bounded time, and its CPU time over them is read from /proc; the attempts
// it made and how they ended come from its own /metrics. The checks turn over the listener's ports
// (bench/wrk/tcp.lua): the per-target budget is per address and port, and its ceiling (100000 a minute)
// is below what one port would take here.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { stopChild, track } from '../lib/children';
import { CLOCK_TICKS_PER_SECOND, readCpuTicks } from '../lib/cpu';
import { accepts, freePort } from '../lib/ports';
import { nettoolsEnv } from '../lib/servers';
import { attemptsByResult, checkCost, type CheckCost } from '../lib/tcp-stats';
import { requestsPerSecond, runWrk, type WrkSummary } from '../lib/wrk';

const MAIN = path.resolve(__dirname, '..', '..', 'src', 'main.js');
const SCRIPT = path.resolve(__dirname, '..', '..', '..', 'bench', 'wrk', 'tcp.lua');

export interface LoadServer {
  pid: number;
  url: string;
  stop(): Promise<void>;
}

export async function startLoadServer(): Promise<LoadServer> {
  const port = await freePort();
  // No name is asked: every target is an IP literal. The resolver is a loopback address all the same.
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...nettoolsEnv(port, 'none=127.0.0.1:9'), NETTOOLS_TARGET_CONNECTIONS_PER_MINUTE: '100000' };
  const child = track(spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'ignore', 'inherit'] }), 'nettools');
  for (let i = 0; i < 200 && !(await accepts(port)); i++) {
    if (child.exitCode !== null) throw new Error(`nettools exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { pid: child.pid as number, url: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

export interface LoadResult {
  cost: CheckCost | null;
  wrk: WrkSummary;
  checksPerSecond: number;
  attempts: Record<string, number>; // the server's attempts over the run, by result
}

async function attempts(server: LoadServer): Promise<Record<string, number>> {
  return attemptsByResult(await (await fetch(`${server.url}/metrics`)).text());
}

export async function loadChecks(server: LoadServer, host: string, ports: number[], durationS: number, connections: number): Promise<LoadResult> {
  const before = { ticks: readCpuTicks(server.pid), attempts: await attempts(server) };
  const run = await runWrk({ url: `${server.url}/api/tools/tcp`, body: `{"host":"${host}","port":{port},"count":1,"timeoutMs":2000}`, connections, threads: 1, durationS, timeoutS: 10, script: SCRIPT, scriptArgs: [ports.join(',')] });
  const ticksAfter = readCpuTicks(server.pid);
  if (!run.ok) throw new Error(run.error);
  const after = await attempts(server);
  const made = Object.fromEntries(Object.entries(after).map(([result, n]) => [result, n - (before.attempts[result] ?? 0)]).filter(([, n]) => (n as number) > 0));
  const ticks = before.ticks === null || ticksAfter === null ? { user: 0, system: 0 } : { user: ticksAfter.user - before.ticks.user, system: ticksAfter.system - before.ticks.system };
  return { cost: checkCost(ticks, CLOCK_TICKS_PER_SECOND, made['connected'] ?? 0), wrk: run.summary, checksPerSecond: requestsPerSecond(run.summary), attempts: made };
}
