// Echoes told as they are decided on the unprivileged datagram path, where ICMP errors come from the
// socket's error queue. ping_group_range is widened only inside a namespace this test creates.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EchoReply, EchoResult } from '../../src/engines/icmp';
import { createNetns, type Netns } from '../support/netns';

const CHILD = path.resolve(__dirname, 'dgram-progress-child.js');

let ns: Netns | undefined;

test.after(() => {
  ns?.destroy();
});

test('over datagram sockets an echo rejected by the target is told as unreachable from the error queue, before the result', () => {
  ns = createNetns();
  ns.exec(['sysctl', '-qw', 'net.ipv4.ping_group_range=0 2147483647']);
  ns.exec(['iptables', '-A', 'INPUT', '-d', '127.0.0.2', '-p', 'icmp', '--icmp-type', 'echo-request', '-j', 'REJECT', '--reject-with', 'icmp-host-unreachable']);
  const options = { address: '127.0.0.2', count: 3, intervalMs: 100, timeoutMs: 1000, size: 56 };
  const out = ns.exec([process.execPath, CHILD, JSON.stringify(options)]);
  const { kind, told, result } = JSON.parse(out) as { kind: string; told: EchoReply[]; result: EchoResult };
  assert.is(kind, 'dgram');
  const expected = [0, 1, 2].map((seq) => ({ seq, status: 'unreachable', from: '127.0.0.2', reason: 'host-unreachable' }));
  assert.equal(told, expected);
  assert.equal(result.replies, expected);
});

test.run();
