import { execFileSync } from 'node:child_process';

// `--client-apart`: the stream client in a network namespace of its own, reached over a veth pair, with
// its end receiving in a kernel thread (threaded NAPI), so that the kernel's receipt of each event (TCP
// receive, the client's wake-up) is not run, and counted, inside the server's send. On loopback, or on a
// veth that hands packets to the receiver in the sender's system call (the default), that work is part of
// the server's account; a client on another machine puts none of it there.
//
// What a veth needs before it queues packets for a thread: GRO on the receiving end (it then has a NAPI
// context), TSO and GSO off on the sending end (a veth passes segmentation-capable packets straight to the
// backlog in the sender's call all the same), and a queueing discipline on the sending end, so that a
// full ring (256 packets) holds the sender back instead of dropping. The server's end receives the
// client's packets (requests, ACKs) as before, inside the client's sends. Run inside the bench's own
// network namespace (lib/own-netns.ts); removed by stop() and, as a last resort, at exit.

export interface ClientApart {
  netns: string; // where the client runs
  serverHost: string; // the server's address on the veth, for it to listen on
  stop(): void;
}

function run(command: string, args: string[]): void {
  execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

export function startClientApart(): ClientApart {
  const name = `ntcl${process.pid % 100000}`;
  const serverIf = `${name}s`;
  const clientIf = `${name}c`;
  // Apart from the target's /24s (soak/icmp-target.ts: 198.19.200-249.x).
  const serverHost = '198.19.250.1';
  const clientHost = '198.19.250.2';
  const inside = (command: string, args: string[]) => run('ip', ['netns', 'exec', name, command, ...args]);
  const remove = () => {
    try {
      run('ip', ['netns', 'del', name]);
    } catch {
      // already gone
    }
  };
  process.once('exit', remove);
  try {
    run('ip', ['netns', 'add', name]);
    run('ip', ['link', 'add', serverIf, 'type', 'veth', 'peer', 'name', clientIf]);
    run('ip', ['link', 'set', clientIf, 'netns', name]);
    run('ip', ['addr', 'add', `${serverHost}/24`, 'dev', serverIf]);
    run('ethtool', ['-K', serverIf, 'tso', 'off', 'gso', 'off']);
    run('tc', ['qdisc', 'replace', 'dev', serverIf, 'root', 'pfifo', 'limit', '10000']);
    run('ip', ['link', 'set', serverIf, 'up']);
    inside('ip', ['addr', 'add', `${clientHost}/24`, 'dev', clientIf]);
    inside('ethtool', ['-K', clientIf, 'gro', 'on']);
    inside('ip', ['link', 'set', clientIf, 'up']);
    inside('ip', ['link', 'set', 'lo', 'up']);
    // sysfs as the namespace sees it: `ip netns exec` mounts it for the namespace.
    inside('sh', ['-c', `echo 1 > /sys/class/net/${clientIf}/threaded`]);
  } catch (err) {
    remove();
    throw err;
  }
  return { netns: name, serverHost, stop: remove };
}
