// Traceroute bench: one trace of a 4-router namespace path whose second router sends no Time Exceeded,
// by nettools' traceroute tool (in-process, no HTTP), Debian's `traceroute -I -n -q 2 -w 1` and
// `mtr -n -r -c 1`, each run `--rounds` times (5) in turn; wall time and CPU time per trace, medians.
// Needs root (namespaces); everything it sends stays inside the path, which it removes at the end.
// node dist/bench/traceroute/run.js [--rounds N]
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTracePath, type TracePath } from '../../test/support/trace-path';

interface Row {
  wallMs: number;
  cpuMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

// `bash -c` in the source namespace: the command's wall time ($EPOCHREALTIME) and its CPU (`times`, children).
function timed(p: TracePath, command: string): Row {
  const script = `s=$EPOCHREALTIME; ${command} >/dev/null; e=$EPOCHREALTIME; echo $s $e; times`;
  const [span, , children] = p.exec(p.source.ns, ['bash', '-c', script]).trim().split('\n') as [string, string, string];
  const [s, e] = span.split(' ').map(Number) as [number, number];
  const seconds = (t: string) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t);
    return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
  };
  const [user, sys] = children.split(' ').map(seconds) as [number, number];
  return { wallMs: (e - s) * 1000, cpuMs: (user + sys) * 1000 };
}

function nettools(p: TracePath, rounds: number): Row[] {
  const child = path.join(__dirname, 'trace-child.js');
  return JSON.parse(p.exec(p.source.ns, [process.execPath, child, p.destination.v4, String(rounds)])) as Row[];
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
    const dir = path.join(__dirname, '..', '..', '..', 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const load = execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).trim();
    writeFileSync(path.join(dir, 'traceroute.json'), JSON.stringify({ at: new Date().toISOString(), rounds, loadavg: load, path: '4 routers, the second silent', summary }, null, 2) + '\n');
  } finally {
    p.destroy();
  }
}

main();
