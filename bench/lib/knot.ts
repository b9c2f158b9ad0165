import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { removeDir, stopChild, track, trackDir } from './children';
import { freePort } from './ports';

const run = promisify(execFile);

export const BENCH_ZONE = 'bench.test';

// What the dns scenario asks for: one record of each type the API knows. Every address is loopback,
// so a ping to any name here (the baseline resolves names through these servers) stays on this machine.
export const BENCH_ZONE_FILE = `$ORIGIN ${BENCH_ZONE}.
$TTL 300
@     SOA  ns.${BENCH_ZONE}. hostmaster.${BENCH_ZONE}. 1 3600 900 604800 300
@     NS   ns
ns    A    127.0.0.1
@     A    127.0.0.10
@     AAAA ::1
@     MX   10 mail
mail  A    127.0.0.11
@     TXT  "v=spf1 -all"
*.fresh A  127.0.0.12
*.fresh AAAA ::1
*.fresh MX 10 mail
*.fresh TXT "fresh"
`;

// Names under this wildcard all exist: a scenario that asks a new one each time cannot be answered
// from a question already in flight.
export const FRESH_SUFFIX = `fresh.${BENCH_ZONE}`;

export interface KnotServer {
  id: string;
  address: string;
  port: number;
  pid: number;
}

export interface KnotSet {
  servers: KnotServer[];
  // `id=address:port,...` for NETTOOLS_RESOLVERS and the baseline.
  resolversEnv: string;
  stop(): Promise<void>;
}

function config(dir: string, address: string, port: number): string {
  return `server:
    rundir: "${dir}/run"
    user: root:root
    listen: [ ${address}@${port} ]
    udp-workers: 1
    tcp-workers: 1
    background-workers: 1
database:
    storage: "${dir}/db"
log:
  - target: stderr
    any: warning
template:
  - id: default
    storage: "${dir}/zones"
    file: "%s.zone"
zone:
  - domain: ${BENCH_ZONE}
`;
}

// One knotd per loopback address (127.0.0.1, 127.0.0.2, ...), each in its own temporary directory.
export async function startKnot(count: number): Promise<KnotSet> {
  const started: Array<{ server: KnotServer; child: ChildProcess; dir: string }> = [];
  const stop = async () => {
    await Promise.all(started.map(async ({ child, dir }) => {
      await stopChild(child);
      removeDir(dir);
    }));
  };
  try {
    for (let i = 0; i < count; i++) {
      const address = `127.0.0.${i + 1}`;
      const port = await freePort(address);
      const dir = trackDir(mkdtempSync(path.join(tmpdir(), `nettools-bench-knot-${process.pid}-`)));
      for (const sub of ['run', 'db', 'zones']) mkdirSync(path.join(dir, sub));
      writeFileSync(path.join(dir, 'zones', `${BENCH_ZONE}.zone`), BENCH_ZONE_FILE);
      writeFileSync(path.join(dir, 'knot.conf'), config(dir, address, port));
      const child = track(spawn('knotd', ['-c', path.join(dir, 'knot.conf')], { stdio: ['ignore', 'ignore', 'pipe'] }), `knotd ${address}`);
      let stderr = '';
      child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
      const server = { id: `knot${i + 1}`, address, port, pid: child.pid ?? 0 };
      started.push({ server, child, dir });
      await waitReady(server, child, () => stderr);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const servers = started.map((s) => s.server);
  return { servers, resolversEnv: servers.map((s) => `${s.id}=${s.address}:${s.port}`).join(','), stop };
}

// Ready when it answers SOA for the zone; kdig is given the loopback address, never a name.
async function waitReady(server: KnotServer, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`knotd on ${server.address}:${server.port} exited: ${stderr().trim()}`);
    try {
      const { stdout } = await run('kdig', [`@${server.address}`, '-p', String(server.port), 'SOA', BENCH_ZONE, '+short', '+time=1', '+retry=0']);
      if (stdout.includes(`hostmaster.${BENCH_ZONE}.`)) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`knotd on ${server.address}:${server.port} did not answer SOA ${BENCH_ZONE} within 10 s: ${stderr().trim()}`);
}
