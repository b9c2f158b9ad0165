import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResolverConfig } from '../../src/config/types';
import { freeDnsPort } from './ports';
import { waitFor } from './wait';

export interface ZoneSpec {
  domain: string;
  // Zone file lines after the SOA and NS, relative to the origin. Omitted with `missingFile`.
  records?: string[];
  ttl?: number; // $TTL; default 300
  missingFile?: boolean; // the zone is configured but its file does not exist: answers SERVFAIL
  noUdp?: boolean; // mod-noudp: every UDP answer comes back with TC set
  // Knot signs the zone itself (automatic DNSSEC, one ECDSA P-256 CSK) and lets loopback transfer it.
  signed?: boolean;
  // The zone file exactly as given (a transferred signed zone, say), instead of SOA, NS and `records`.
  text?: string;
}

export interface KnotServer {
  address: string;
  port: number;
  resolver(id: string): ResolverConfig;
  // SIGSTOP / SIGCONT: a paused knotd leaves queries in its socket and answers them once resumed.
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

const running = new Set<{ child: ChildProcess; dir: string }>();

// SIGSTOP returns before every thread of knotd has stopped: a thread busy on the other core answered a
// query sent a moment after it (seen twice on a loaded machine). Waits, at most a second, until the
// kernel shows every thread stopped.
function stopAndWait(child: ChildProcess): void {
  child.kill('SIGSTOP');
  const until = Date.now() + 1000;
  const stopped = (): boolean => {
    try {
      return readdirSync(`/proc/${child.pid}/task`).every((t) => {
        const stat = readFileSync(`/proc/${child.pid}/task/${t}/stat`, 'utf8');
        return /^[TtX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
      });
    } catch {
      return true; // gone: nothing left to answer
    }
  };
  while (!stopped()) {
    if (Date.now() > until) throw new Error(`knotd ${child.pid} did not stop within a second of SIGSTOP`);
  }
}

// Last resort if a test run dies without its test.after (a thrown hook, a timeout's SIGTERM, Ctrl-C):
// no knotd outlives the test process and no temp dir stays behind.
function killAllNow(): void {
  for (const { child, dir } of running) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
  running.clear();
}
process.once('exit', killAllNow);
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.once(signal, () => {
    killAllNow();
    process.exit(code);
  });
}

function zoneFile(zone: ZoneSpec): string {
  if (zone.text !== undefined) return zone.text;
  const origin = `${zone.domain}.`;
  return [
    `$ORIGIN ${origin}`,
    `$TTL ${zone.ttl ?? 300}`,
    `@ SOA ns.${origin} hostmaster.${origin} 1 3600 900 604800 60`,
    `@ NS ns.${origin}`,
    `ns A 127.0.0.1`,
    ...(zone.records ?? []),
    '',
  ].join('\n');
}

function config(dir: string, address: string, port: number, zones: ZoneSpec[]): string {
  const lines = [
    'server:',
    `    rundir: "${dir}/run"`,
    '    user: root:root',
    `    listen: ${address}@${port}`,
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
  ];
  if (zones.some((z) => z.signed)) {
    lines.push('policy:', '  - id: signed', '    algorithm: ecdsap256sha256', '    single-type-signing: on');
    lines.push('acl:', '  - id: loopback', '    address: 127.0.0.0/8', '    action: transfer');
  }
  lines.push('zone:');
  for (const zone of zones) {
    lines.push(`  - domain: ${zone.domain}`);
    if (zone.noUdp) lines.push('    module: mod-noudp');
    if (zone.signed) lines.push('    dnssec-signing: on', '    dnssec-policy: signed', '    acl: loopback');
  }
  return lines.join('\n') + '\n';
}

function answersSoa(address: string, port: number, zone: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('kdig', [`@${address}`, '-p', String(port), '+timeout=1', '+retry=0', 'SOA', zone], (err, stdout) =>
      resolve(!err && stdout.includes('status: NOERROR')),
    );
  });
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function stopEntry(entry: { child: ChildProcess; dir: string }): Promise<void> {
  running.delete(entry);
  entry.child.kill('SIGTERM');
  entry.child.kill('SIGCONT'); // a paused knotd acts on SIGTERM only once it runs again
  if (!(await waitExit(entry.child, 3000))) {
    entry.child.kill('SIGKILL');
    await waitExit(entry.child, 3000);
  }
  rmSync(entry.dir, { recursive: true, force: true });
}

// Starts one knotd on `address` (loopback) with the given zones; resolves once it answers SOA for a loadable zone.
export async function startKnot(zones: ZoneSpec[], address = '127.0.0.1'): Promise<KnotServer> {
  const dir = mkdtempSync(path.join(tmpdir(), `nettools-knot-${process.pid}-`));
  for (const sub of ['run', 'db', 'zones']) mkdirSync(path.join(dir, sub));
  for (const zone of zones) {
    if (!zone.missingFile) writeFileSync(path.join(dir, 'zones', `${zone.domain}.zone`), zoneFile(zone));
  }
  const port = await freeDnsPort(address);
  writeFileSync(path.join(dir, 'knot.conf'), config(dir, address, port, zones));
  const child = spawn('knotd', ['-c', path.join(dir, 'knot.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const entry = { child, dir };
  running.add(entry);
  const probe = zones.find((z) => !z.missingFile);
  try {
    if (!probe) throw new Error('startKnot needs at least one zone with a file to probe readiness');
    const zone = probe.domain;
    const ready = async () => {
      if (child.exitCode !== null) throw new Error(`knotd exited early: ${stderr}`);
      return answersSoa(address, port, zone);
    };
    await waitFor(`knotd on ${address}@${port} answering SOA`, ready, { everyMs: 50 }).catch((err: Error) => {
      throw child.exitCode !== null ? err : new Error(`${err.message}: ${stderr}`);
    });
  } catch (err) {
    await stopEntry(entry);
    throw err;
  }
  return {
    address,
    port,
    resolver: (id) => ({ id, address, port, family: address.includes(':') ? 6 : 4 }),
    pause: () => stopAndWait(child),
    resume: () => void child.kill('SIGCONT'),
    stop: () => (running.has(entry) ? stopEntry(entry) : Promise.resolve()),
  };
}

function kdig(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('kdig', ['+timeout=2', '+retry=1', ...args], (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
}

// A signed zone as Knot serves it, as a zone file (AXFR, the closing SOA left out).
export async function transferZone(server: KnotServer, zone: string): Promise<string> {
  const out = await kdig([`@${server.address}`, '-p', String(server.port), '+nocomments', '+nostats', '+noquestion', 'AXFR', zone]);
  const lines = out.split('\n').filter((l) => l.trim() !== '' && !l.startsWith(';'));
  return lines.slice(0, -1).join('\n') + '\n';
}

// The zone's DNSKEY records as a resolver's trust anchor wants them: "zone. DNSKEY 257 3 13 <key>".
export async function dnskeyAnchors(server: KnotServer, zone: string): Promise<string[]> {
  const out = await kdig([`@${server.address}`, '-p', String(server.port), '+short', 'DNSKEY', zone]);
  return out.split('\n').filter((l) => l.trim() !== '').map((key) => `${zone}. DNSKEY ${key.trim()}`);
}

export async function stopAllKnot(): Promise<void> {
  await Promise.all([...running].map(stopEntry));
}
