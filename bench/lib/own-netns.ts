import { spawnSync } from 'node:child_process';

// A server's instruction count or CPU time is only its own if nothing else reaches it: nettools' ICMP
// engine holds a raw socket, which the kernel hands every ICMP packet of the network namespace (other
// people's pings on this machine, or a second count's ping scenario), and each one costs the server; and
// the host's firewall runs in every system call that sends (a NAT table left by a container tool turns
// connection tracking on for every packet, loopback included). So a measurement runs again in a network
// namespace of its own (`unshare --net`, root), with loopback up and nothing else: Knot, the server and
// the client all talk on that loopback alone, and no rule of the host's is in the way.

const MARK = 'NETTOOLS_BENCH_OWN_NETNS';

export function inOwnNetns(): boolean {
  return process.env[MARK] === '1';
}

// Runs this same command line again inside a new network namespace and returns its exit status.
export function rerunInOwnNetns(): number {
  const script = 'ip link set lo up && exec "$0" "$@"';
  const run = spawnSync('unshare', ['--net', '--', 'sh', '-c', script, process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [MARK]: '1' },
  });
  if (run.error) throw new Error(`unshare --net: ${run.error.message}`);
  return run.status ?? 1;
}
