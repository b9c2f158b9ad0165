// mtr bench on a 3-router namespace path where every hop answers (test/support/trace-path.ts):
// 1. probes per second and CPU per cycle per hop: nettools' mtr tool as the server runs it (in-process, no
//    HTTP) against Debian's `mtr --report -n` at the same settings (10 cycles, 200 ms apart), in turns,
//    `--rounds` times (3); echo requests to the destination counted on the wire by an iptables rule in the
//    source namespace, so each tool's probes are counted the same way.
// 2. `--streams` (500) streamed mtrs of 30 cycles, one second apart, at once against a nettools server in
//    the source namespace: how many end whole, the server's CPU and peak RSS.
// Needs root (namespaces); everything it sends stays inside the path, which it removes at the end. About
// a minute: each tool's rounds take 2-6 s, the streams 30 s and their set-up.
// node dist/bench/mtr/run.js [--rounds N] [--streams N]
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTracePath, type TracePath } from '../../test/support/trace-path';
import { timedInSource } from '../lib/timed-in-path';

const CYCLES = 10;
const INTERVAL_MS = 200;
const STREAM_CYCLES = 30;
const STREAM_INTERVAL_MS = 1000;

interface Row {
  wallMs: number;
  cpuMs: number;
  probes: number;
  probesPerSecond: number;
  cpuUsPerCycleHop: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

// Echo requests from the source to the destination: a rule with no target, only its counter.
function echoCounter(p: TracePath): { zero(): void; read(): number } {
  const rule = ['-p', 'icmp', '--icmp-type', 'echo-request', '-d', p.destination.v4];
  p.exec(p.source.ns, ['iptables', '-I', 'OUTPUT', '1', ...rule]);
  return {
    zero: () => void p.exec(p.source.ns, ['iptables', '-Z', 'OUTPUT']),
    read: () => Number(p.exec(p.source.ns, ['iptables', '-L', 'OUTPUT', '1', '-v', '-x', '-n']).trim().split(/\s+/)[0]),
  };
}

function row(wallMs: number, cpuMs: number, probes: number, hops: number): Row {
  return { wallMs, cpuMs, probes, probesPerSecond: probes / (wallMs / 1000), cpuUsPerCycleHop: (cpuMs * 1000) / (CYCLES * hops) };
}

function nettools(p: TracePath, counter: ReturnType<typeof echoCounter>, hops: number): Row {
  counter.zero();
  const child = path.join(__dirname, 'cycles-child.js');
  const out = JSON.parse(p.exec(p.source.ns, [process.execPath, child, p.routers.at(-1)!.v4, p.destination.v4, String(CYCLES), String(INTERVAL_MS)]));
  if (!out.reached || out.hops !== hops) throw new Error(`nettools' mtr did not find the path: ${JSON.stringify(out)}`);
  return row(out.wallMs, out.cpuMs, counter.read(), hops);
}

function debianMtr(p: TracePath, counter: ReturnType<typeof echoCounter>, hops: number): Row {
  counter.zero();
  const t = timedInSource(p, `mtr --report -n -c ${CYCLES} -i ${INTERVAL_MS / 1000} ${p.destination.v4}`);
  return row(t.wallMs, t.cpuMs, counter.read(), hops);
}

function summarize(rows: Row[]) {
  const pick = (k: keyof Row) => median(rows.map((r) => r[k]));
  return { wallMs: pick('wallMs'), cpuMs: pick('cpuMs'), probes: pick('probes'), probesPerSecond: pick('probesPerSecond'), cpuUsPerCycleHop: pick('cpuUsPerCycleHop'), runs: rows };
}

function main(): void {
  const rounds = option('rounds', 3);
  const streams = option('streams', 500);
  const p = createTracePath(3, 'ntmb');
  try {
    const hops = p.routers.length + 1;
    const counter = echoCounter(p);
    const rows: Record<string, Row[]> = { nettools: [], [`mtr --report -n -c ${CYCLES} -i ${INTERVAL_MS / 1000}`]: [] };
    for (let i = 0; i < rounds; i++) {
      rows['nettools']!.push(nettools(p, counter, hops));
      rows[`mtr --report -n -c ${CYCLES} -i ${INTERVAL_MS / 1000}`]!.push(debianMtr(p, counter, hops));
    }
    const summary = Object.fromEntries(Object.entries(rows).map(([name, r]) => [name, summarize(r)]));
    for (const [name, s] of Object.entries(summary)) {
      console.log(`${name.padEnd(32)} ${s.probes} probes in ${s.wallMs.toFixed(0)} ms: ${s.probesPerSecond.toFixed(1)}/s; cpu ${s.cpuMs.toFixed(1)} ms, ${s.cpuUsPerCycleHop.toFixed(1)} µs per cycle per hop`);
    }
    const child = path.join(__dirname, 'streams-child.js');
    const together = JSON.parse(p.exec(p.source.ns, [process.execPath, child, p.destination.v4, String(streams), String(STREAM_CYCLES), String(STREAM_INTERVAL_MS), String(hops)]));
    const perCycleHopUs = (together.serverCpuMs * 1000) / (streams * STREAM_CYCLES * hops);
    console.log(`${streams} streamed mtrs of ${STREAM_CYCLES} cycles at once: ${together.whole} whole in ${together.wallMs.toFixed(0)} ms; server cpu ${together.serverCpuMs} ms (${perCycleHopUs.toFixed(1)} µs per cycle per hop), peak RSS ${(together.serverPeakRssKiB / 1024).toFixed(1)} MiB${Object.keys(together.failures).length > 0 ? `, not whole: ${JSON.stringify(together.failures)}` : ''}`);
    const dir = path.join(__dirname, '..', '..', '..', 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const load = execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).trim();
    const settings = { cycles: CYCLES, intervalMs: INTERVAL_MS, streamCycles: STREAM_CYCLES, streamIntervalMs: STREAM_INTERVAL_MS };
    writeFileSync(path.join(dir, 'mtr.json'), JSON.stringify({ at: new Date().toISOString(), rounds, loadavg: load, path: '3 routers, every hop answering', settings, summary, streams: { ...together, serverCpuUsPerCycleHop: perCycleHopUs } }, null, 2) + '\n');
  } finally {
    p.destroy();
  }
}

main();
