// The unprivileged datagram path. ping_group_range is widened only inside a namespace this test
// creates; a child process there runs the engine forced to datagram sockets.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EchoResult, SocketKinds } from '../../src/engines/icmp';
import { openPinger } from '../../src/engines/icmp/pinger';
import { createNetns, type Netns } from '../support/netns';
import { pingGroupAdmitsUs, testUnless } from '../support/capability';
import { ip } from '../support/address';

const CHILD = path.resolve(__dirname, '..', 'support', 'dgram-child.js');

let ns: Netns | undefined;

test.after(() => {
  ns?.destroy();
});

testUnless(test, pingGroupAdmitsUs())('forcing datagram sockets where ping_group_range refuses them leaves both families without a socket', () => {
  const p = openPinger({ kind: 'dgram' });
  try {
    assert.is(p.socketKinds.v4, null);
    assert.is(p.socketKinds.v6, null);
    assert.ok(p.socketKinds.reasons.v4!.length > 0);
  } finally {
    p.close();
  }
});

testUnless(test, pingGroupAdmitsUs())('a ping for a family without a socket is refused with no-socket', async () => {
  const p = openPinger({ kind: 'dgram' });
  try {
    const err = await p
      .ping({ address: ip('127.0.0.1'), count: 1, intervalMs: 10, timeoutMs: 100, size: 8 })
      .then(() => null, (e: unknown) => e);
    assert.is((err as { code?: string }).code, 'no-socket');
  } finally {
    p.close();
  }
});

test('in a namespace that admits our group, datagram sockets ping 127.0.0.1 and ::1 and get errors from the error queue', () => {
  ns = createNetns();
  ns.exec(['sysctl', '-qw', 'net.ipv4.ping_group_range=0 2147483647']);
  ns.exec(['iptables', '-A', 'INPUT', '-d', '127.0.0.2', '-p', 'icmp', '--icmp-type', 'echo-request', '-j', 'REJECT', '--reject-with', 'icmp-host-unreachable']);
  ns.exec(['ip6tables', '-A', 'INPUT', '-d', ns.nsV6, '-p', 'ipv6-icmp', '--icmpv6-type', 'echo-request', '-j', 'REJECT', '--reject-with', 'icmp6-adm-prohibited']);
  // Errors and replies share each socket. On loopback the rejection arrives while the rejected echo is
  // still being sent, so the good ping's send in the same timer turn finds a pending socket error: it
  // must still go out. (Rejected target first, per family, to get exactly that order.)
  const targets = [
    { address: '127.0.0.2', count: 10 },
    { address: '127.0.0.1', count: 10 },
    { address: ns.nsV6, count: 10 },
    { address: '::1', count: 10 },
  ];
  const out = ns.exec([process.execPath, CHILD, JSON.stringify(targets)]);
  const { socketKinds, results } = JSON.parse(out) as { socketKinds: SocketKinds; results: EchoResult[] };
  assert.equal(socketKinds, { v4: 'dgram', v6: 'dgram', reasons: {} });
  const [rejected4, v4, rejected6, v6] = results as [EchoResult, EchoResult, EchoResult, EchoResult];
  for (const r of [v4, v6]) {
    assert.equal(r.packets, { sent: 10, received: 10, duplicates: 0, lossPercent: 0 });
    for (const reply of r.replies) assert.ok(reply.rttMs! > 0 && reply.rttMs! < 1000);
  }
  for (const reply of rejected4.replies) {
    assert.equal(reply, { seq: reply.seq, status: 'unreachable', from: '127.0.0.2', reason: 'host-unreachable' });
  }
  for (const reply of rejected6.replies) {
    assert.equal(reply, { seq: reply.seq, status: 'unreachable', from: ns.nsV6, reason: 'admin-prohibited' });
  }
  ns.destroy();
  ns = undefined;
});

test.run();
