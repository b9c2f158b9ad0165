// Test hosts in network namespaces: a veth pair from the host into a fresh namespace, with addresses
// from 198.18.0.0/15 and fd00::/8. Names are unique per process; every namespace is deleted on destroy()
// and, as a last resort, when the process exits.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';

export interface Netns {
  name: string;
  hostIf: string;
  nsIf: string;
  hostV4: string; // host end
  nsV4: string; // the test host inside the namespace
  hostV6: string;
  nsV6: string;
  // Addresses one hop beyond the namespace once routeBeyond() ran: the namespace forwards to them.
  beyondV4: string;
  beyondV6: string;
  routeBeyond(): void;
  // Runs a command inside the namespace and returns its stdout.
  exec(args: string[]): string;
  // Starts a long-running command inside the namespace.
  spawn(args: string[]): ChildProcess;
  destroy(): void;
}

const live = new Set<string>();
let counter = 0;

function ip(args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function removeNamespace(name: string, hostIf: string): void {
  try {
    ip(['netns', 'del', name]);
  } catch {
    // already gone
  }
  try {
    ip(['link', 'del', hostIf]);
  } catch {
    // deleting the namespace took the veth pair with it
  }
  live.delete(name);
}

process.on('exit', () => {
  for (const name of [...live]) removeNamespace(name, `${name}h`);
});

export function createNetns(): Netns {
  const index = ++counter;
  const pid = process.pid % 100000;
  const name = `nt${pid}x${index}`; // + 'h' / 'n' stays within the 15-byte interface name limit
  const hostIf = `${name}h`;
  const nsIf = `${name}n`;
  // A /24 per namespace, spread by pid so parallel runs on one machine do not share a subnet.
  const slot = (pid * 16 + index) % 512;
  const v4 = `198.${18 + (slot >> 8)}.${slot & 255}`;
  const v6 = `fd00:${pid.toString(16)}:${index.toString(16)}`;
  const ns: Netns = {
    name,
    hostIf,
    nsIf,
    hostV4: `${v4}.1`,
    nsV4: `${v4}.2`,
    hostV6: `${v6}::1`,
    nsV6: `${v6}::2`,
    beyondV4: `${v4}.200`,
    beyondV6: `${v6}::200`,
    routeBeyond: () => {
      // Host routes inside our own /24 and /64 (more specific than the connected prefix), so nothing
      // outside this namespace's addresses is claimed. The namespace decrements the TTL when forwarding.
      ns.exec(['sysctl', '-qw', 'net.ipv4.ip_forward=1']);
      ns.exec(['sysctl', '-qw', 'net.ipv6.conf.all.forwarding=1']);
      ip(['route', 'add', `${ns.beyondV4}/32`, 'via', ns.nsV4, 'dev', hostIf]);
      ip(['-6', 'route', 'add', `${ns.beyondV6}/128`, 'via', ns.nsV6, 'dev', hostIf]);
    },
    exec: (args) => ip(['netns', 'exec', name, ...args]),
    spawn: (args) => spawn('ip', ['netns', 'exec', name, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }),
    destroy: () => removeNamespace(name, hostIf),
  };
  live.add(name);
  try {
    ip(['netns', 'add', name]);
    ip(['link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf]);
    ip(['link', 'set', nsIf, 'netns', name]);
    // DAD would keep the IPv6 addresses tentative (unusable) for a second or more.
    execFileSync('sysctl', ['-qw', `net.ipv6.conf.${hostIf}.accept_dad=0`]);
    ns.exec(['sysctl', '-qw', `net.ipv6.conf.${nsIf}.accept_dad=0`]);
    ip(['addr', 'add', `${ns.hostV4}/24`, 'dev', hostIf]);
    ip(['-6', 'addr', 'add', `${ns.hostV6}/64`, 'dev', hostIf, 'nodad']);
    ip(['link', 'set', hostIf, 'up']);
    ns.exec(['ip', 'addr', 'add', `${ns.nsV4}/24`, 'dev', nsIf]);
    ns.exec(['ip', '-6', 'addr', 'add', `${ns.nsV6}/64`, 'dev', nsIf, 'nodad']);
    ns.exec(['ip', 'link', 'set', 'lo', 'up']);
    ns.exec(['ip', 'link', 'set', nsIf, 'up']);
  } catch (err) {
    ns.destroy();
    throw err;
  }
  return ns;
}

// Namespaces a test file makes, so that its after hook removes whatever a failed test left behind.
export function netnsTracker(): { netns(): Netns; drop(ns: Netns): void; dropAll(): void } {
  const open = new Set<Netns>();
  const drop = (ns: Netns) => {
    ns.destroy();
    open.delete(ns);
  };
  return {
    netns() {
      const ns = createNetns();
      open.add(ns);
      return ns;
    },
    drop,
    dropAll: () => [...open].forEach(drop),
  };
}
