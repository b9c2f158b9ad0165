// A Knot DNS server on loopback serving zones given as text: the test resolver for host names.
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { Resolver } from 'node:dns/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface KnotServer {
  port: number;
  stop(): Promise<void>;
}

async function freeUdpPort(): Promise<number> {
  const s = createSocket('udp4');
  s.bind(0, '127.0.0.1');
  await once(s, 'listening');
  const { port } = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

// zones: domain -> zone file text. Listens on 127.0.0.1 and ::1 at one port.
export async function startKnot(zones: Record<string, string>): Promise<KnotServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'nettools-knot-'));
  for (const sub of ['run', 'db', 'zones']) mkdirSync(path.join(dir, sub));
  const port = await freeUdpPort();
  for (const [domain, text] of Object.entries(zones)) writeFileSync(path.join(dir, 'zones', `${domain}.zone`), text);
  const conf = [
    'server:',
    `    rundir: "${dir}/run"`,
    '    user: root:root',
    `    listen: [ 127.0.0.1@${port}, ::1@${port} ]`,
    '    udp-workers: 1',
    '    tcp-workers: 1',
    '    background-workers: 1',
    'database:',
    `    storage: "${dir}/db"`,
    'log:',
    '  - target: stderr',
    '    any: warning',
    'template:',
    '  - id: default',
    `    storage: "${dir}/zones"`,
    '    file: "%s.zone"',
    'zone:',
    ...Object.keys(zones).map((d) => `  - domain: ${d}`),
    '',
  ].join('\n');
  writeFileSync(path.join(dir, 'knot.conf'), conf);
  const child: ChildProcess = spawn('knotd', ['-c', path.join(dir, 'knot.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready when the first zone's SOA answers (bounded wait).
  const resolver = new Resolver({ timeout: 200, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  const first = Object.keys(zones)[0]!;
  for (let i = 0; i < 50; i++) {
    if (child.exitCode !== null) break;
    try {
      await resolver.resolveSoa(first);
      return { port, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await stop();
  throw new Error(`knotd did not become ready: ${stderr}`);
}
