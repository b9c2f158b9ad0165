import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateKey } from '../../src/keys/api-key';
import { formatKeyRecord } from '../../src/keys/key-record';
import { stopChild, track, trackDir } from './children';
import { accepts, freePort } from './ports';
import type { ServerName } from './types';

// dist/bench/lib -> dist/
const DIST = path.resolve(__dirname, '..', '..');
const DEBIAN13 = path.resolve(DIST, '..', '.ci', 'debian13.sh');

export interface RunningServer {
  name: ServerName;
  pid: number;
  url: string; // http://127.0.0.1:<port>, or the address it was asked to listen on
  header?: string; // sent with every request: the API key of nettools-keyed
  stop(): Promise<void>;
}

// Settings that keep nettools' protections out of the way of a load test, so both servers are
// compared with no effective rate limit.
export function nettoolsEnv(port: number, resolvers: string, host = '127.0.0.1'): Record<string, string> {
  return {
    PORT: String(port),
    HOST: host,
    NETTOOLS_RESOLVERS: resolvers,
    NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true',
    NETTOOLS_RATE_LIMIT: '1000000/1s',
    // The brief asked for 100000; the server accepts at most 10000, still far above any connection count here.
    NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '10000',
    NETTOOLS_MAX_IN_FLIGHT: '1000000',
    NETTOOLS_TARGET_ECHOES_PER_SECOND: '100000',
    // The Knot resolvers are ours and on loopback: the load test is not held to a public resolver's budget.
    NETTOOLS_RESOLVER_QPS: '1000000',
    NETTOOLS_LOG_LEVEL: 'silent',
  };
}

const ENTRY: Record<ServerName, string> = {
  nettools: path.join(DIST, 'src', 'main.js'),
  'nettools-nometrics': path.join(DIST, 'src', 'main.js'),
  'nettools-keyed': path.join(DIST, 'src', 'main.js'),
  'nettools-workers2': path.join(DIST, 'src', 'main.js'),
  'nettools-redis': path.join(DIST, 'src', 'main.js'),
  'nettools-node24': DEBIAN13, // started by startOnNode24
  'nettools-other': path.join(DIST, 'src', 'main.js'), // started by startNettoolsFrom with its own build
  baseline: path.join(DIST, 'bench', 'peers', 'baseline.js'),
  ceiling: path.join(DIST, 'bench', 'peers', 'ceiling.js'),
  'ceiling-identical': path.join(DIST, 'bench', 'peers', 'ceiling-identical.js'),
};

// Starts one server as a child on a port picked here (nettools is silent, so it prints no port),
// and waits until it accepts connections.
// `redisUrl`: the private Redis the nettools-redis variant keeps its budgets in. `host`: the address it
// listens on (loopback unless a bench puts its client elsewhere: streams/client-apart.ts).
export async function startServer(name: ServerName, resolvers: string, redisUrl?: string, host = '127.0.0.1'): Promise<RunningServer> {
  const port = await freePort(host);
  // Only loopback resolvers reach any of them; the environment is built here, not inherited.
  if (name === 'nettools-node24') return startOnNode24(port, resolvers);
  const variant = variantOf(name, redisUrl);
  return spawnServer(name, ENTRY[name], port, { ...nettoolsEnv(port, resolvers, host), ...variant.env }, variant.header, host);
}

// Plain nettools from another build of it (bench/revisions.ts: a revision's own worktree), with the same
// settings as the bench's own nettools.
export async function startNettoolsFrom(name: ServerName, entry: string, resolvers: string): Promise<RunningServer> {
  const port = await freePort();
  return spawnServer(name, entry, port, nettoolsEnv(port, resolvers));
}

// BENCH_SERVER_NODE_ARGS: flags for the server's node, to profile it in a run (`--cpu-prof`, or
// `--perf-basic-prof` for `perf record -p`); the server's environment is still built here, not inherited.
export const SERVER_NODE_ARGS = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(' ').filter(Boolean);

async function spawnServer(name: ServerName, entry: string, port: number, settings: Record<string, string>, header?: string, host = '127.0.0.1'): Promise<RunningServer> {
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...settings };
  const child = track(spawn(process.execPath, [...SERVER_NODE_ARGS, entry], { env, stdio: ['ignore', 'ignore', 'pipe'] }), name);
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const url = `http://${host}:${port}`;
  await waitListening(child, port, () => stderr, name, host);
  return { name, pid: child.pid as number, url, ...(header ? { header } : {}), stop: () => stopChild(child) };
}

// The build of `.ci/debian13.sh --build` (this clone, built in the Debian 13 root) served on Node 24 by
// `--serve`, which mounts the root for the server's life and prints node's process id: CPU and memory
// are read from node itself, as for the other servers, not from the script around it.
async function startOnNode24(port: number, resolvers: string): Promise<RunningServer> {
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...nettoolsEnv(port, resolvers) };
  const child = track(spawn('bash', [DEBIAN13, '--serve'], { env, stdio: ['ignore', 'ignore', 'pipe'] }), 'nettools-node24');
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  await waitListening(child, port, () => stderr, 'nettools-node24');
  const pid = Number(/serving: node pid (\d+)/.exec(stderr)?.[1]);
  if (!Number.isInteger(pid)) {
    await stopChild(child);
    throw new Error(`nettools-node24 did not say its process id: ${stderr.trim()}`);
  }
  return { name: 'nettools-node24', pid, url: `http://127.0.0.1:${port}`, stop: () => stopChild(child, 10_000) };
}

// What makes each nettools variant what it is. The keyed one loads 1,000 keys (a plan as roomy as the
// anonymous limit) and is sent the last of them, so a look-up is a real one among many.
function variantOf(name: ServerName, redisUrl: string | undefined): { env: Record<string, string>; header?: string } {
  if (name === 'nettools-nometrics') return { env: { NETTOOLS_METRICS: 'false' } };
  if (name === 'nettools-redis') {
    if (redisUrl === undefined) throw new Error('nettools-redis needs a Redis to keep its budgets in');
    return { env: { NETTOOLS_REDIS_URL: redisUrl } };
  }
  if (name === 'nettools-workers2') return { env: { NETTOOLS_WORKERS: '2' } };
  if (name !== 'nettools-keyed') return { env: {} };
  const dir = trackDir(mkdtempSync(path.join(tmpdir(), 'nettools-bench-keys-')));
  const file = path.join(dir, 'keys');
  const keys = Array.from({ length: 1000 }, () => generateKey());
  const created = new Date().toISOString();
  writeFileSync(file, keys.map((k) => formatKeyRecord({ id: k.id, sha256: k.sha256, plan: 'bench', label: '', created, expires: null, revoked: null }) + '\n').join(''), { mode: 0o600 });
  return {
    env: { NETTOOLS_API_KEYS_FILE: file, NETTOOLS_PLANS: 'bench=1000000/1s:10000' },
    header: `Authorization: Bearer ${(keys.at(-1) as { key: string }).key}`,
  };
}

async function waitListening(child: ChildProcess, port: number, stderr: () => string, name: string, host = '127.0.0.1'): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${stderr().trim()}`);
    if (await accepts(port, host)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  await stopChild(child);
  throw new Error(`${name} did not listen on ${host}:${port} within 15 s: ${stderr().trim()}`);
}
