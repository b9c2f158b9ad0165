// Run inside a test namespace (ip netns exec) where net.ipv4.ping_group_range admits us: opens the
// engine forced to datagram sockets, pings the targets given as JSON in argv[2], prints one JSON line.
import { openPinger } from '../../src/engines/icmp/pinger';
import { ip } from './address';

// The family comes with the address's value.
interface Target {
  address: string;
  count?: number;
}

async function main(): Promise<void> {
  const targets = JSON.parse(process.argv[2] ?? '[]') as Target[];
  const pinger = openPinger({ kind: 'dgram' });
  try {
    const results = await Promise.all(
      targets.map((t) => pinger.ping({ address: ip(t.address), count: t.count ?? 3, intervalMs: 10, timeoutMs: 1000, size: 56 })),
    );
    process.stdout.write(JSON.stringify({ socketKinds: pinger.socketKinds, results }) + '\n');
  } finally {
    pinger.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(String(err) + '\n');
  process.exitCode = 1;
});
