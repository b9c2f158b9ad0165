// Run inside a test namespace (ip netns exec) where net.ipv4.ping_group_range admits us: pings the target
// given as JSON in argv[2] over datagram sockets with onEcho, prints the echoes as told and the result.
import type { EchoOptions, EchoReply } from '../../src/engines/icmp';
import { openPinger } from '../../src/engines/icmp/pinger';
import { ip } from '../support/address';

const pinger = openPinger({ kind: 'dgram' });
const told: EchoReply[] = [];
// The address comes as text (JSON has no bytes): its value is made here.
const given = JSON.parse(process.argv[2] ?? '{}') as Omit<EchoOptions, 'address'> & { address: string };
const options: EchoOptions = { ...given, address: ip(given.address) };
pinger.start(
  options,
  (outcome) => {
    process.stdout.write(JSON.stringify({ kind: pinger.socketKinds.v4, told, result: outcome.ok ? outcome.echo : outcome.error.code }) + '\n');
    pinger.close();
  },
  (echo) => told.push(echo),
);
