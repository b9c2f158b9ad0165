// The cost half of the tcp bench: the nettools server (its own process, as deployed) answers a bounded
// number of POST /api/tools/tcp checks, `concurrency` at a time, and its CPU time over them is read from
// /proc. The checks spread over the listener's ports: the per-target budget is per address and port, and
// its ceiling (100000 a minute) is below what one port would take here.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { stopChild, track } from '../lib/children';
import { CLOCK_TICKS_PER_SECOND, readCpuTicks } from '../lib/cpu';
import { accepts, freePort } from '../lib/ports';
import { nettoolsEnv } from '../lib/servers';
import { checkCost, type CheckCost } from '../lib/tcp-stats';

const MAIN = path.resolve(__dirname, '..', '..', 'src', 'main.js');

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
  wallS: number;
  connected: number;
  other: Record<string, number>; // responses that were not a connected check, by status or outcome
}

export async function loadChecks(server: LoadServer, host: string, ports: number[], checks: number, concurrency: number): Promise<LoadResult> {
  let next = 0;
  let connected = 0;
  const other: Record<string, number> = {};
  const worker = async () => {
    while (next < checks) {
      const port = ports[next++ % ports.length];
      const reply = await fetch(`${server.url}/api/tools/tcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ host, port, count: 1, timeoutMs: 2000 }) });
      const body = (await reply.json()) as { connected?: boolean; code?: string };
      if (reply.status === 200 && body.connected === true) connected++;
      else {
        const key = `${reply.status} ${body.code ?? 'not connected'}`;
        other[key] = (other[key] ?? 0) + 1;
      }
    }
  };
  const before = readCpuTicks(server.pid);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wallS = (performance.now() - t0) / 1000;
  const after = readCpuTicks(server.pid);
  const ticks = before === null || after === null ? { user: 0, system: 0 } : { user: after.user - before.user, system: after.system - before.system };
  return { cost: checkCost(ticks, CLOCK_TICKS_PER_SECOND, connected), wallS, connected, other };
}
