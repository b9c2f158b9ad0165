import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResolverConfig } from '../../src/config/types';
import { freeDnsPort, freeFixedTcpPort } from './ports';
import { waitFor } from './wait';

// A private validating resolver: unbound with its own config file on a loopback address, each test zone
// a stub zone pointing at a loopback Knot, trust anchors given by the test. Debian's unbound service is
// never used (test/setup/ensure-deps.sh masks it). The root is a stub at the first zone's server too, so
// nothing this resolver does can leave loopback.

export interface StubZone { zone: string; address: string; port: number }

// DoT (RFC 7858) beside plain DNS: unbound serves TLS on `tlsPort` with this certificate and key. Ports
// given are used (a restart on the same ones); else free ones are picked, the DoT one below the ephemeral
// range so that a restart can bind it again (see freeFixedTcpPort).
export interface UnboundOptions {
  tls?: { pem: string; key: string };
  port?: number;
  tlsPort?: number;
}

export interface UnboundServer {
  address: string;
  port: number;
  tlsPort: number | null;
  resolver(id: string): ResolverConfig;
  // The DoT resolver, its certificate checked against `name`.
  dotResolver(id: string, name: string): ResolverConfig;
  stop(): Promise<void>;
}

const running = new Set<{ child: ChildProcess; dir: string }>();
process.once('exit', () => {
  for (const { child, dir } of running) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

function tlsLines(address: string, tls: UnboundOptions['tls'], tlsPort: number | null): string[] {
  if (tls === undefined || tlsPort === null) return [];
  return [`    interface: ${address}@${tlsPort}`, `    tls-port: ${tlsPort}`, `    tls-service-pem: "${tls.pem}"`, `    tls-service-key: "${tls.key}"`];
}

function config(dir: string, address: string, port: number, stubs: StubZone[], anchors: string[], options: UnboundOptions, tlsPort: number | null): string {
  const root = stubs[0] as StubZone;
  const lines = [
    'server:',
    `    interface: ${address}@${port}`,
    `    port: ${port}`,
    ...tlsLines(address, options.tls, tlsPort),
    '    do-ip6: no',
    '    do-not-query-localhost: no',
    '    chroot: ""',
    '    username: ""',
    `    directory: "${dir}"`,
    `    pidfile: "${dir}/unbound.pid"`,
    '    use-syslog: no',
    '    logfile: ""',
    '    verbosity: 0',
    '    do-daemonize: no',
    '    module-config: "validator iterator"',
    '    ede: yes',
    // The reason for a validation failure becomes the EDE's EXTRA-TEXT only at this level.
    '    val-log-level: 2',
    '    qname-minimisation: no',
    // RFC 6761 names are answered NXDOMAIN by unbound itself unless told otherwise: our zones are under test.
    '    local-zone: "test." nodefault',
    ...anchors.map((a) => `    trust-anchor: "${a}"`),
    'remote-control:',
    '    control-enable: no',
  ];
  for (const s of [...stubs, { ...root, zone: '.' }]) lines.push('stub-zone:', `    name: "${s.zone}"`, `    stub-addr: ${s.address}@${s.port}`);
  return lines.join('\n') + '\n';
}

function answers(address: string, port: number, zone: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('kdig', [`@${address}`, '-p', String(port), '+timeout=1', '+retry=0', 'SOA', zone], (err, stdout) => resolve(!err && stdout.includes('status: NOERROR')));
  });
}

export async function startUnbound(address: string, stubs: StubZone[], anchors: string[], options: UnboundOptions = {}): Promise<UnboundServer> {
  if (stubs.length === 0) throw new Error('startUnbound needs at least one stub zone');
  const dir = mkdtempSync(path.join(tmpdir(), `nettools-unbound-${process.pid}-`));
  const port = options.port ?? (await freeDnsPort(address));
  const tlsPort = options.tls === undefined ? null : (options.tlsPort ?? (await freeFixedTcpPort(address)));
  writeFileSync(path.join(dir, 'unbound.conf'), config(dir, address, port, stubs, anchors, options, tlsPort));
  const child = spawn('unbound', ['-d', '-c', path.join(dir, 'unbound.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const entry = { child, dir };
  running.add(entry);
  const stop = async () => {
    if (!running.delete(entry)) return;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const zone = (stubs[0] as StubZone).zone;
  await waitFor(`unbound on ${address}@${port} answering SOA ${zone}`, async () => {
    if (child.exitCode !== null) throw new Error(`unbound exited early: ${stderr}`);
    return answers(address, port, zone);
  }, { everyMs: 50 }).catch(async (err: Error) => {
    await stop();
    throw new Error(`${err.message}: ${stderr}`);
  });
  const dotResolver = (id: string, name: string): ResolverConfig => {
    if (tlsPort === null) throw new Error('this unbound serves no DoT');
    return { id, address, port: tlsPort, family: 4, tlsName: name };
  };
  return { address, port, tlsPort, resolver: (id) => ({ id, address, port, family: 4 }), dotResolver, stop };
}
