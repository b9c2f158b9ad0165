import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installCleanupHandlers, stopAll, track } from '../lib/children';
import { cpuPerRequestUs, cpuUse, readCpuTicks } from '../lib/cpu';
import { say } from '../lib/log';
import { gitCommit, machine } from '../lib/machine';
import { readPeakRssKiB, resetPeakRss } from '../lib/rss';
import { startServer } from '../lib/servers';

// `npm run bench:streams [-- --streams 1000,5000 --count 15 --interval 1000]`: N streamed pings held at
// once against one nettools server, one echo a second each (half to 127.0.0.1, half to ::1), crossing a
// round of ten. Reports the server's CPU per event sent, its peak RSS, events late by more than 50 ms, and
// streams not whole (lost or out-of-order replies). Targets (issue "Live measurements"): 5,000 streams
// with peak RSS <= 300 MB and <= 10 µs of server CPU per event, none lost or out of order.

const ROOT = path.resolve(__dirname, '..', '..', '..');
const RESULTS = path.join(ROOT, 'bench', 'results');
const CLIENT = path.join(__dirname, 'client.js');
const TARGETS = { peakRssMiB: 300, cpuUsPerEvent: 10 };

interface ClientReport {
  streams: number;
  whole: number;
  events: number;
  replies: number;
  missingReplies: number;
  outOfOrder: number;
  late: number;
  worstLateMs: number;
  problems: Record<string, number>;
  statuses: Record<string, number>;
}

function option(args: string[], name: string, fallback: string): string {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] !== undefined ? (args[at + 1] as string) : fallback;
}

function runClient(url: string, streams: number, count: number, intervalMs: number): Promise<ClientReport> {
  return new Promise((resolve, reject) => {
    const child = track(spawn(process.execPath, [CLIENT, url, String(streams), String(count), String(intervalMs)], { stdio: ['ignore', 'pipe', 'inherit'] }), 'stream-client');
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as ClientReport) : reject(new Error(`the stream client exited with ${code}`))));
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const sizes = option(args, 'streams', '1000,5000').split(',').map(Number);
  const count = Number(option(args, 'count', '15'));
  const intervalMs = Number(option(args, 'interval', '1000'));
  installCleanupHandlers();
  // Every target is an IP literal: no resolver is asked.
  const server = await startServer('nettools', 'none=127.0.0.1:9');
  const rows = [];
  for (const streams of sizes) {
    resetPeakRss(server.pid);
    const before = readCpuTicks(server.pid);
    const t0 = performance.now();
    say(`streams: ${streams} streamed pings of ${count} echoes, one per ${intervalMs} ms`);
    const client = await runClient(server.url, streams, count, intervalMs);
    const wallS = (performance.now() - t0) / 1000;
    const use = cpuUse(before, readCpuTicks(server.pid), client.events, wallS);
    const peak = readPeakRssKiB(server.pid);
    const row = {
      cpuUsPerEvent: use === null ? null : Math.round(cpuPerRequestUs(use) * 100) / 100,
      // On loopback the kernel's work for the echo and its reply, and for the client's side of each TCP
      // write, runs in the server's system calls: system time is not all nettools' own.
      userUsPerEvent: use === null ? null : Math.round(use.userUsPerRequest * 100) / 100,
      systemUsPerEvent: use === null ? null : Math.round(use.systemUsPerRequest * 100) / 100,
      serverBusyPercent: use === null ? null : Math.round(use.busyPercent),
      peakRssMiB: peak === null ? null : Math.round((peak / 1024) * 10) / 10,
      wallS: Math.round(wallS * 10) / 10,
      ...client,
    };
    rows.push(row);
    const verdict = [
      row.peakRssMiB !== null && row.peakRssMiB <= TARGETS.peakRssMiB ? 'rss ok' : 'rss OVER',
      row.cpuUsPerEvent !== null && row.cpuUsPerEvent <= TARGETS.cpuUsPerEvent ? 'cpu ok' : 'cpu OVER',
      row.whole === streams ? 'all whole' : `${streams - row.whole} NOT WHOLE`,
    ].join(', ');
    say(`  ${row.cpuUsPerEvent} µs CPU per event (user ${row.userUsPerEvent}, system ${row.systemUsPerEvent}), peak RSS ${row.peakRssMiB} MiB, ${row.late} late > 50 ms (worst ${row.worstLateMs} ms), ${row.whole}/${streams} whole: ${verdict}`);
  }
  await server.stop();
  const { commit, dirty } = gitCommit(ROOT);
  const record = { finishedAt: new Date().toISOString(), commit, dirty, machine: machine(), count, intervalMs, targets: TARGETS, rows };
  mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `streams-${record.finishedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(record, null, 2) + '\n');
  say(`written: ${path.relative(ROOT, file)}`);
}

main().catch(async (err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  await stopAll();
  process.exit(1);
});
