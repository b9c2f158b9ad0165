import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installCleanupHandlers, stopAll } from '../lib/children';
import { inOwnNetns, rerunInOwnNetns } from '../lib/own-netns';
import { cpuPerRequestUs, cpuUse, readCpuTicks, type CpuTicks, type CpuUse } from '../lib/cpu';
import { say } from '../lib/log';
import { checkTools } from '../lib/tools';
import { gitCommit, machine } from '../lib/machine';
import { readPeakRssKiB, resetPeakRss } from '../lib/rss';
import { startServer, type RunningServer } from '../lib/servers';
import { startIcmpTarget } from '../soak/icmp-target';
import { startClientApart } from './client-apart';
import { runClient, type ClientReport } from './client-process';
import { countStreamInstructions, INSTRUCTION_LOAD } from './instructions';

// `npm run bench:streams [-- --streams 1000,5000 --count 15 --interval 1000]`: N streamed pings held at
// once against one nettools server, one echo a second each (half to 127.0.0.1, half to ::1), crossing a
// round of ten. Reports the server's CPU per event sent, its peak RSS, events late by more than 50 ms, and
// streams not whole (lost or out-of-order replies). Targets (issue "Live measurements"): 5,000 streams
// with peak RSS <= 300 MB and <= 10 µs of server CPU per event, none lost or out of order.
//
// `-- --steady` (5,000 streams of 45 echoes by default): the streams open spread over one interval, all to
// a host in a network namespace of this run's own, and the CPU per event is read over a window where
// every stream is open and past its opening (client.ts): the steady state, without the bench's own burst
// of openings and closes, on a server warmed by a shorter run first (warm). Target (issue): <= 15 µs of
// server CPU per event. `--loopback` sends the steady streams to 127.0.0.1 and ::1 instead, to see what
// the namespace changes.
//
// Every run is in a network namespace of its own (server, client and the target's namespace alike), so
// that the host's firewall and other pings on the machine are not counted as the server's (since
// 2026-11-28; lib/own-netns.ts). `--client-apart` runs the stream client in a namespace of its own too,
// whose receipt of each event runs in a kernel thread, not inside the server's send (client-apart.ts).
//
// `-- --steady --instructions [--build <tree>]`: instructions per event instead of CPU time, the server
// under callgrind at a lighter load (instructions.ts); `--build` counts another tree's build (its
// dist/src/main.js), to set two builds side by side.

const ROOT = path.resolve(__dirname, '..', '..', '..');
const RESULTS = path.join(ROOT, 'bench', 'results');
const TARGETS = { peakRssMiB: 300, cpuUsPerEvent: 10, steadyCpuUsPerEvent: 15 };

function option(args: string[], name: string, fallback: string): string {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] !== undefined ? (args[at + 1] as string) : fallback;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function cpuFields(use: CpuUse | null) {
  return {
    cpuUsPerEvent: use === null ? null : round2(cpuPerRequestUs(use)),
    // On loopback the kernel's work for the echo and its reply, and for the client's side of each TCP
    // write, runs in the server's system calls: system time is not all nettools' own.
    userUsPerEvent: use === null ? null : round2(use.userUsPerRequest),
    systemUsPerEvent: use === null ? null : round2(use.systemUsPerRequest),
    serverBusyPercent: use === null ? null : Math.round(use.busyPercent),
  };
}

// All streams at once; CPU over the whole run, openings and closes included.
async function burst(server: RunningServer, streams: number, count: number, intervalMs: number, netns?: string) {
  const before = readCpuTicks(server.pid);
  const t0 = performance.now();
  const client = await runClient(server.url, { streams, count, intervalMs, hosts: ['127.0.0.1', '::1'], steady: false, ...(netns ? { netns } : {}) });
  const wallS = (performance.now() - t0) / 1000;
  return { ...cpuFields(cpuUse(before, readCpuTicks(server.pid), client.events, wallS)), wallS: Math.round(wallS * 10) / 10, ...client };
}

// Before a steady run, the server is warmed: streams that cross two rounds at the shortest interval, so
// that V8 has compiled the stream and round paths before the window opens, as in a server that has been
// up for a while. Without it the window held the compilation of the whole round path, at the first round
// every stream crosses; with it, V8 still compiles about a dozen of those functions again there, no
// deoptimisation logged, a longer warm-up (five rounds) no different (bench/README.md, Streams).
const WARMUP = { streams: 1000, count: 21, intervalMs: 100 };

async function warm(server: RunningServer, hosts: string[], netns?: string): Promise<void> {
  const client = await runClient(server.url, { ...WARMUP, hosts, steady: false, ...(netns ? { netns } : {}) });
  if (client.whole !== WARMUP.streams) throw new Error(`warming the server: ${WARMUP.streams - client.whole} of ${WARMUP.streams} streams not whole`);
}

// Openings spread over one interval; CPU over the client's steady window only.
async function steady(server: RunningServer, streams: number, count: number, intervalMs: number, hosts: string[], netns?: string) {
  await warm(server, hosts, netns);
  let start: { ticks: CpuTicks | null; at: number } | null = null;
  let window: { use: CpuUse | null; events: number; seconds: number } | null = null;
  const client: ClientReport = await runClient(server.url, {
    streams,
    count,
    intervalMs,
    hosts,
    steady: true,
    ...(netns ? { netns } : {}),
    onMark: (mark) => {
      if (mark.mark === 'start') start = { ticks: readCpuTicks(server.pid), at: performance.now() };
      else if (start !== null) {
        const seconds = (performance.now() - start.at) / 1000;
        window = { use: cpuUse(start.ticks, readCpuTicks(server.pid), mark.events, seconds), events: mark.events, seconds: Math.round(seconds * 10) / 10 };
      }
    },
  });
  const w = window as { use: CpuUse | null; events: number; seconds: number } | null;
  if (w === null) throw new Error('the stream client marked no steady window');
  return { ...cpuFields(w.use), windowEvents: w.events, windowS: w.seconds, ...client };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const isSteady = args.includes('--steady');
  const sizes = option(args, 'streams', isSteady ? '5000' : '1000,5000').split(',').map(Number);
  const count = Number(option(args, 'count', isSteady ? '45' : '15'));
  const intervalMs = Number(option(args, 'interval', '1000'));
  if (isSteady && count < 6) throw new Error('--steady needs --count 6 or more: its window starts 3 intervals in and ends 2 before the first stream does');
  // The server, the client and the target's namespace in a network namespace of the run's own: the host's
  // firewall and other pings on the machine cost the server CPU that is not its own (lib/own-netns.ts).
  if (!inOwnNetns()) {
    checkTools(['unshare', 'ip'], 'install util-linux and iproute2 (root)');
    if (args.includes('--client-apart')) checkTools(['ethtool', 'tc'], 'install ethtool and iproute2 (root)');
    process.exit(rerunInOwnNetns());
  }
  installCleanupHandlers();
  if (isSteady && args.includes('--instructions')) return instructions(args);
  const target = isSteady && !args.includes('--loopback') ? startIcmpTarget() : null;
  const apart = args.includes('--client-apart') ? startClientApart() : null;
  const netns = apart?.netns;
  // Every target is an IP literal: no resolver is asked.
  const server = await startServer('nettools', 'none=127.0.0.1:9', undefined, apart?.serverHost);
  const loadBefore = machine().loadAverage1m;
  const rows = [];
  for (const streams of sizes) {
    resetPeakRss(server.pid);
    const hosts = target ? [target.address] : ['127.0.0.1', '::1'];
    say(`streams: ${streams} streamed pings of ${count} echoes, one per ${intervalMs} ms to ${hosts.join(' and ')}${isSteady ? ', opened over one interval' : ''}`);
    const measured = isSteady ? await steady(server, streams, count, intervalMs, hosts, netns) : await burst(server, streams, count, intervalMs, netns);
    const peak = readPeakRssKiB(server.pid);
    const row = { ...measured, peakRssMiB: peak === null ? null : Math.round((peak / 1024) * 10) / 10 };
    rows.push(row);
    const cpuTarget = isSteady ? TARGETS.steadyCpuUsPerEvent : TARGETS.cpuUsPerEvent;
    const verdict = [
      row.peakRssMiB !== null && row.peakRssMiB <= TARGETS.peakRssMiB ? 'rss ok' : 'rss OVER',
      row.cpuUsPerEvent !== null && row.cpuUsPerEvent <= cpuTarget ? 'cpu ok' : 'cpu OVER',
      row.whole === streams ? 'all whole' : `${streams - row.whole} NOT WHOLE`,
    ].join(', ');
    say(`  ${row.cpuUsPerEvent} µs CPU per event (user ${row.userUsPerEvent}, system ${row.systemUsPerEvent}, busy ${row.serverBusyPercent}%), peak RSS ${row.peakRssMiB} MiB, ${row.late} late > 50 ms (worst ${row.worstLateMs} ms), ${row.whole}/${streams} whole: ${verdict}`);
  }
  await server.stop();
  target?.stop();
  apart?.stop();
  const { commit, dirty } = gitCommit(ROOT);
  const mode = isSteady ? (target ? 'steady' : 'steady-loopback') : 'burst';
  const record = { finishedAt: new Date().toISOString(), mode, commit, dirty, netns: 'own', client: apart ? 'apart' : 'same-namespace', machine: { ...machine(), loadAverage1mBefore: loadBefore }, count, intervalMs, ...(isSteady ? { warmup: WARMUP } : {}), targets: TARGETS, rows };
  mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `streams-${isSteady ? `${mode}-` : ''}${record.finishedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(record, null, 2) + '\n');
  say(`written: ${path.relative(ROOT, file)}`);
}

async function instructions(args: string[]): Promise<void> {
  checkTools(['valgrind', 'callgrind_control'], 'run bash bench/ensure-tools.sh');
  const tree = path.resolve(option(args, 'build', ROOT));
  const entry = path.join(tree, 'dist', 'src', 'main.js');
  const load = {
    streams: Number(option(args, 'streams', String(INSTRUCTION_LOAD.streams))),
    count: Number(option(args, 'count', String(INSTRUCTION_LOAD.count))),
    intervalMs: Number(option(args, 'interval', String(INSTRUCTION_LOAD.intervalMs))),
    windowFromIntervals: Number(option(args, 'window-from', String(INSTRUCTION_LOAD.windowFromIntervals))),
  };
  const target = startIcmpTarget();
  say(`streams: instructions per event under callgrind, ${load.streams} streamed pings of ${load.count} echoes, one per ${load.intervalMs} ms to ${target.address}, build of ${tree}`);
  const { commit, dirty } = gitCommit(tree);
  const counted = await countStreamInstructions(entry, [target.address], `streams-${commit.slice(0, 12)}${dirty ? '-dirty' : ''}-${Date.now()}`, load);
  target.stop();
  const { instructionsPerEvent, compilingPerEvent, collectingPerEvent, events, clientEvents, ir } = counted;
  say(`  ${Math.round(instructionsPerEvent)} instructions per event, besides V8's compiling (${Math.round(compilingPerEvent)}) and collecting garbage (${Math.round(collectingPerEvent)}) (${ir} in all over ${events} events; the client counted ${clientEvents}), ${counted.client.whole}/${load.streams} whole; dump: ${counted.dump}`);
  const record = { finishedAt: new Date().toISOString(), mode: 'steady-instructions', commit, dirty, tree, netns: 'own', machine: machine(), ...load, ...counted };
  mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `streams-instructions-${record.finishedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(record, null, 2) + '\n');
  say(`written: ${path.relative(ROOT, file)}`);
}

main().catch(async (err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  await stopAll();
  process.exit(1);
});
