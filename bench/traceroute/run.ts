// Traceroute bench: one trace of a 4-router namespace path whose second router sends no Time Exceeded,
// by nettools' traceroute tool (in-process, no HTTP), Debian's `traceroute -I -n -q 2 -w 1` and
// `mtr -n -r -c 1`, each run `--rounds` times (5) in turn; wall time and CPU time per trace, medians.
// Then 100 traces at once, one to each of 100 addresses of the destination (the same routers: each its own
// destination and budget), which must all end whole.
// Needs root (namespaces); everything it sends stays inside the path, which it removes at the end.
// node dist/bench/traceroute/run.js [--rounds N]
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTracePath, type TracePath } from '../../test/support/trace-path';
import { timedInSource, type Timed } from '../lib/timed-in-path';

type Row = Timed;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const timed = timedInSource;

function nettools(p: TracePath, rounds: number): Row[] {
  const child = path.join(__dirname, 'trace-child.js');
  return JSON.parse(p.exec(p.source.ns, [process.execPath, child, p.destination.v4, String(rounds)])) as Row[];
}

const CONCURRENT = 100;

// CONCURRENT more addresses on the destination's link (198.18.(10 + last link).10 and up), all traced at once.
function concurrent(p: TracePath, links: number): { traces: number; whole: number; failures: Record<string, number>; wallMs: number; cpuMs: number } {
  const dev = `p${links - 1}l`;
  const hosts = Array.from({ length: CONCURRENT }, (_, i) => `198.18.${10 + links - 1}.${10 + i}`);
  for (const host of hosts) p.exec(p.destination.ns, ['ip', 'addr', 'add', `${host}/24`, 'dev', dev]);
  const child = path.join(__dirname, 'concurrent-child.js');
  return JSON.parse(p.exec(p.source.ns, [process.execPath, child, hosts.join(','), String(links)]));
}

function main(): void {
  const at = process.argv.indexOf('--rounds');
  const rounds = at > 0 ? Number(process.argv[at + 1]) : 5;
  const p = createTracePath(4);
  try {
    p.exec(p.routers[1]!.ns, ['iptables', '-A', 'OUTPUT', '-p', 'icmp', '--icmp-type', 'time-exceeded', '-j', 'DROP']);
    const dst = p.destination.v4;
    const rows: Record<string, Row[]> = { nettools: [], 'traceroute -I -n -q 2 -w 1': [], 'mtr -n -r -c 1': [] };
    for (let i = 0; i < rounds; i++) {
      rows['nettools']!.push(...nettools(p, 1));
      rows['traceroute -I -n -q 2 -w 1']!.push(timed(p, `traceroute -I -n -q 2 -w 1 ${dst}`));
      rows['mtr -n -r -c 1']!.push(timed(p, `mtr -n -r -c 1 ${dst}`));
    }
    const summary = Object.fromEntries(Object.entries(rows).map(([name, r]) => [name, { wallMs: median(r.map((x) => x.wallMs)), cpuMs: median(r.map((x) => x.cpuMs)), runs: r }]));
    for (const [name, s] of Object.entries(summary)) console.log(`${name.padEnd(28)} wall ${s.wallMs.toFixed(1).padStart(8)} ms   cpu ${s.cpuMs.toFixed(2).padStart(7)} ms`);
    const together = concurrent(p, p.routers.length + 1);
    console.log(`${CONCURRENT} traces at once: ${together.whole} whole in ${together.wallMs.toFixed(1)} ms, cpu ${together.cpuMs.toFixed(1)} ms${Object.keys(together.failures).length > 0 ? `, failed: ${JSON.stringify(together.failures)}` : ''}`);
    const dir = path.join(__dirname, '..', '..', '..', 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const load = execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).trim();
    writeFileSync(path.join(dir, 'traceroute.json'), JSON.stringify({ at: new Date().toISOString(), rounds, loadavg: load, path: '4 routers, the second silent', summary, concurrent: together }, null, 2) + '\n');
  } finally {
    p.destroy();
  }
}

main();
