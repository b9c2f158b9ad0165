// Three places that reach one target differently, for tests of measurements at locations: agent
// namespaces `direct` (one link to the target), `routed` (through two routers) and `refused` (its one
// router answers the target's packets with admin-prohibited). Each agent namespace also has a veth link
// to the host (netns.ts), its only way to the hub; none has a default route. The target and every link
// between the namespaces live inside them, never in the host's own network.
import { execFileSync } from 'node:child_process';
import { createNetns, type Netns } from './netns';

export interface TopologyAgent {
  name: 'direct' | 'routed' | 'refused';
  host: Netns; // its link to the host: the hub is reached at host.hostV4
}

export interface LocationsTopology {
  target: string; // the target's address, on the target namespace's loopback
  agents: TopologyAgent[];
  routedHops: string[]; // what a trace from `routed` sees: its two routers, then the target
  refusingRouter: string; // the router that refuses the target, as `refused` sees it
  destroy(): void;
}

// Link k's /24 and the target's address are picked clear of the three host links' /24s (netns.ts spreads
// those over all of 198.18.0.0/15), so no namespace ever holds one prefix twice.
function prefixes(hostLinks: readonly Netns[]): { net: (k: number, side: 1 | 2) => string; target: string } {
  const taken = new Set(hostLinks.map((h) => h.hostV4.split('.').slice(0, 3).join('.')));
  const free = Array.from({ length: 60 }, (_, i) => `198.19.${190 + i}`).filter((p) => !taken.has(p));
  return { net: (k, side) => `${free[k] as string}.${side}`, target: `${free[0] as string}.1` };
}

function ip(args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

export function createLocationsTopology(): LocationsTopology {
  const prefix = `ntl${process.pid % 100000}`;
  const inner = ['t', 'r1', 'r2', 'r3'].map((n) => `${prefix}-${n}`);
  const [t, r1, r2, r3] = inner as [string, string, string, string];
  const made: Netns[] = [];
  const destroy = () => {
    for (const h of made) h.destroy();
    for (const name of inner) {
      try {
        ip(['netns', 'del', name]);
      } catch {
        // not made, or gone already
      }
    }
  };
  process.once('exit', destroy);
  try {
    const [direct, routed, refused] = [createNetns(), createNetns(), createNetns()] as [Netns, Netns, Netns];
    made.push(direct, routed, refused);
    const { net, target: TARGET } = prefixes(made);
    const exec = (ns: string, args: string[]) => ip(['netns', 'exec', ns, ...args]);
    for (const name of inner) {
      ip(['netns', 'add', name]);
      exec(name, ['ip', 'link', 'set', 'lo', 'up']);
    }
    exec(t, ['ip', 'addr', 'add', `${TARGET}/32`, 'dev', 'lo']);
    // Link k joins `left` (.1) and `right` (.2) on 198.18.(200+k).0/24.
    const link = (k: number, left: string, right: string) => {
      ip(['-n', left, 'link', 'add', `l${k}a`, 'type', 'veth', 'peer', 'name', `l${k}b`, 'netns', right]);
      for (const [ns, ifname, side] of [[left, `l${k}a`, 1], [right, `l${k}b`, 2]] as const) {
        exec(ns, ['ip', 'addr', 'add', `${net(k, side)}/24`, 'dev', ifname]);
        exec(ns, ['ip', 'link', 'set', ifname, 'up']);
      }
    };
    link(1, direct.name, t);
    link(2, routed.name, r1);
    link(3, r1, r2);
    link(4, r2, t);
    link(5, refused.name, r3);
    link(6, r3, t);
    for (const router of [r1, r2, r3]) {
      for (const s of ['net.ipv4.ip_forward=1', 'net.ipv4.icmp_ratelimit=0']) exec(router, ['sysctl', '-qw', s]);
    }
    const via = (ns: string, to: string, hop: string) => exec(ns, ['ip', 'route', 'add', to, 'via', hop]);
    via(direct.name, `${TARGET}/32`, net(1, 2));
    via(routed.name, `${TARGET}/32`, net(2, 2));
    via(r1, `${TARGET}/32`, net(3, 2));
    via(r2, `${TARGET}/32`, net(4, 2));
    via(r2, `${net(2, 1)}/32`, net(3, 1));
    via(t, `${net(2, 1)}/32`, net(4, 1));
    via(t, `${net(3, 1)}/32`, net(4, 1));
    via(refused.name, `${TARGET}/32`, net(5, 2));
    via(r3, `${TARGET}/32`, net(6, 2));
    via(t, `${net(5, 1)}/32`, net(6, 1));
    exec(r3, ['iptables', '-A', 'FORWARD', '-d', TARGET, '-j', 'REJECT', '--reject-with', 'icmp-admin-prohibited']);
    return {
      target: TARGET,
      agents: [
        { name: 'direct', host: direct },
        { name: 'routed', host: routed },
        { name: 'refused', host: refused },
      ],
      routedHops: [net(2, 2), net(3, 2), TARGET],
      refusingRouter: net(5, 2),
      destroy,
    };
  } catch (err) {
    destroy();
    throw err;
  }
}
