import { execFileSync } from 'node:child_process';

// A ping target in a network namespace of its own (veth pair, 198.18.0.0/15 addresses), whose replies can
// be switched off and on (icmp_echo_ignore_all). Deleted on stop() and, as a last resort, at exit.

export interface IcmpTarget {
  address: string;
  setSilent(silent: boolean): void;
  stop(): void;
}

function ip(args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

export function startIcmpTarget(): IcmpTarget {
  const pid = process.pid % 100000;
  const name = `ntsoak${pid}`; // + 'h' / 'n' stays within the 15-byte interface name limit
  const hostIf = `${name}h`;
  const nsIf = `${name}n`;
  // A /24 inside 198.18.0.0/15 chosen by pid, apart from the test suite's slots (which use 198.18-19.x
  // with the pid spread too) as far as a pid allows; the soak makes one namespace only.
  const third = 200 + (pid % 50);
  const host = `198.19.${third}.1`;
  const target = `198.19.${third}.2`;
  const remove = () => {
    try {
      ip(['netns', 'del', name]);
    } catch {
      // already gone
    }
    try {
      ip(['link', 'del', hostIf]);
    } catch {
      // went with the namespace
    }
  };
  process.once('exit', remove);
  try {
    ip(['netns', 'add', name]);
    ip(['link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf]);
    ip(['link', 'set', nsIf, 'netns', name]);
    ip(['addr', 'add', `${host}/24`, 'dev', hostIf]);
    ip(['link', 'set', hostIf, 'up']);
    ip(['netns', 'exec', name, 'ip', 'addr', 'add', `${target}/24`, 'dev', nsIf]);
    ip(['netns', 'exec', name, 'ip', 'link', 'set', nsIf, 'up']);
    ip(['netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up']);
  } catch (err) {
    remove();
    throw err;
  }
  return {
    address: target,
    setSilent: (silent) => ip(['netns', 'exec', name, 'sysctl', '-qw', `net.ipv4.icmp_echo_ignore_all=${silent ? 1 : 0}`]),
    stop: remove,
  };
}
