// A routed path in network namespaces for traceroute tests: a source, `routers` forwarding routers and a
// destination in a line, one veth pair per link, made inside the namespaces (nothing is added to the
// host's own network). Link k joins node k and node k+1 with 198.18.(10+k).0/24 and fd00:7472:k::/64,
// the left node .1 / ::1, the right .2 / ::2. Routers forward, answer with no ICMP rate limit, and know
// every link's prefix; the ends route everything into the path. Namespaces are named <owner>-<pid>-<n>-<node>,
// owner `ntr` unless the suite names its own (suites of different folders may run side by side).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';

export interface PathNode {
  ns: string;
  v4: string; // the address facing the source (the source: its only address)
  v6: string;
}

export interface TracePath {
  source: PathNode;
  routers: PathNode[]; // in order from the source
  destination: PathNode;
  exec(ns: string, args: string[]): string;
  spawn(ns: string, args: string[]): ChildProcess;
  destroy(): void;
}

const live = new Set<string>();
let made = 0;

function ip(args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function removeAll(names: readonly string[]): void {
  for (const name of names) {
    try {
      ip(['netns', 'del', name]);
    } catch {
      // already gone
    }
    live.delete(name);
  }
}

process.on('exit', () => removeAll([...live]));

const v4 = (link: number, side: 1 | 2) => `198.18.${10 + link}.${side}`;
// In the canonical form the engine reports (RFC 5952: a zero group is left out).
const v6 = (link: number, side: 1 | 2) => (link === 0 ? `fd00:7472::${side}` : `fd00:7472:${link.toString(16)}::${side}`);

// Node i's routes: its own links are connected; every other link lies towards the source (left) or
// the destination (right).
function route(run: (args: string[]) => void, node: number, links: number): void {
  for (let link = 0; link < links; link++) {
    if (link === node - 1 || link === node) continue;
    const left = link < node - 1;
    const via4 = left ? v4(node - 1, 1) : v4(node, 2);
    const via6 = left ? v6(node - 1, 1) : v6(node, 2);
    run(['ip', 'route', 'add', `198.18.${10 + link}.0/24`, 'via', via4]);
    run(['ip', '-6', 'route', 'add', `fd00:7472:${link.toString(16)}::/64`, 'via', via6]);
  }
}

function link(names: readonly string[], k: number, exec: (ns: string, args: string[]) => void): void {
  const [left, right] = [names[k] as string, names[k + 1] as string];
  // Made in the left namespace, its peer moved straight into the right one: never in the host's.
  ip(['-n', left, 'link', 'add', `p${k}r`, 'type', 'veth', 'peer', 'name', `p${k}l`, 'netns', right]);
  for (const [ns, ifname, side] of [[left, `p${k}r`, 1], [right, `p${k}l`, 2]] as const) {
    exec(ns, ['sysctl', '-qw', `net.ipv6.conf.${ifname}.accept_dad=0`]);
    exec(ns, ['ip', 'addr', 'add', `${v4(k, side)}/24`, 'dev', ifname]);
    exec(ns, ['ip', '-6', 'addr', 'add', `${v6(k, side)}/64`, 'dev', ifname, 'nodad']);
    exec(ns, ['ip', 'link', 'set', ifname, 'up']);
  }
}

export function createTracePath(routers = 3, owner = 'ntr'): TracePath {
  const prefix = `${owner}-${process.pid}-${++made}`;
  const names = [`${prefix}-s`, ...Array.from({ length: routers }, (_, i) => `${prefix}-r${i + 1}`), `${prefix}-d`];
  const exec = (ns: string, args: string[]) => ip(['netns', 'exec', ns, ...args]);
  const links = names.length - 1;
  const destroy = () => removeAll(names);
  try {
    for (const name of names) {
      live.add(name);
      ip(['netns', 'add', name]);
      exec(name, ['ip', 'link', 'set', 'lo', 'up']);
    }
    for (let k = 0; k < links; k++) link(names, k, exec);
    for (let i = 1; i <= routers; i++) {
      const ns = names[i] as string;
      for (const s of ['net.ipv4.ip_forward=1', 'net.ipv6.conf.all.forwarding=1', 'net.ipv4.icmp_ratelimit=0', 'net.ipv6.icmp.ratelimit=0']) exec(ns, ['sysctl', '-qw', s]);
      route((args) => exec(ns, args), i, links);
    }
    route((args) => exec(names[0] as string, args), 0, links);
    route((args) => exec(names[links] as string, args), links, links);
  } catch (err) {
    destroy();
    throw err;
  }
  const node = (i: number): PathNode => ({ ns: names[i] as string, v4: i === 0 ? v4(0, 1) : v4(i - 1, 2), v6: i === 0 ? v6(0, 1) : v6(i - 1, 2) });
  return {
    source: node(0),
    routers: Array.from({ length: routers }, (_, i) => node(i + 1)),
    destination: node(links),
    exec,
    spawn: (ns, args) => spawn('ip', ['netns', 'exec', ns, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }),
    destroy,
  };
}
