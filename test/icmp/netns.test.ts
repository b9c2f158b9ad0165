// The engine against test hosts in network namespaces: delay, loss, silence, rejection, duplicates,
// TTL expiry. The engine runs in the host namespace (as root it uses raw sockets).
import type { ChildProcess } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Pinger } from '../../src/engines/icmp';
import { openPinger } from '../../src/engines/icmp/pinger';
import { startResponder as startIcmpResponder, stopResponder } from '../support/icmp-responder';
import { netnsTracker, type Netns } from '../support/netns';
import { busy } from '../support/busy';
import { ip } from '../support/address';

let pinger: Pinger;
const { netns, drop, dropAll } = netnsTracker();
const children = new Set<ChildProcess>();

async function startResponder(ns: Netns, args: string[]): Promise<ChildProcess> {
  const child = await startIcmpResponder(ns, args);
  children.add(child);
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  children.delete(child);
  await stopResponder(child);
}

test.before(() => {
  pinger = openPinger();
});

test.after(async () => {
  for (const child of [...children]) await stop(child);
  dropAll();
  pinger.close();
});

test('RTTs to a host that answers after 20 ms are never below 20 ms and, but for a late answer, within 2 ms of it', async () => {
  const ns = netns();
  const responder = await startResponder(ns, ['--delay-ms', '20']);
  try {
    // Warm up neighbour resolution and the responder, which are not what this test measures.
    await pinger.ping({ address: ip(ns.nsV4), count: 1, intervalMs: 50, timeoutMs: 1000, size: 56 });
    const r = await pinger.ping({ address: ip(ns.nsV4), count: 5, intervalMs: 50, timeoutMs: 1000, size: 56 });
    assert.is(r.packets.received, 5);
    const rtts = r.replies.map((x) => x.rttMs!);
    for (const reply of r.replies) {
      assert.is(reply.status, 'reply');
      assert.ok(reply.rttMs! >= 19.9, `rtts ${rtts.join(' ')}`);
    }
    // The responder, a process on a busy two-core machine, now and then answers milliseconds late (23.3
    // and 27.8 ms were seen): the median and the minimum, not every echo, must sit within 2 ms of 20.
    const sorted = [...rtts].sort((a, b) => a - b);
    assert.ok((sorted[2] as number) - 20 <= 2 && r.rtt!.minMs - 20 <= 2, `rtts ${rtts.join(' ')}`);
  } finally {
    await stop(responder);
    drop(ns);
  }
});

test('a reply that came within the timeout while the loop was busy past it counts as a reply', async () => {
  const ns = netns();
  const responder = await startResponder(ns, ['--delay-ms', '20']);
  try {
    await pinger.ping({ address: ip(ns.nsV4), count: 1, intervalMs: 50, timeoutMs: 1000, size: 56 });
    // The echo leaves in the engine's timer callback; the loop is then held from the check phase of that
    // turn, before the reply (20 ms later) can have been read, until well past the 100 ms timeout. libuv
    // runs the deadline's timer before it polls the socket. A reply read before the loop got busy proves
    // nothing: that attempt is repeated.
    for (let attempt = 0; attempt < 10; attempt++) {
      let settled = false;
      let held = false;
      const pending = pinger.ping({ address: ip(ns.nsV4), count: 1, intervalMs: 50, timeoutMs: 100, size: 56 });
      void pending.then(() => (settled = true));
      await new Promise<void>((resolve) =>
        setTimeout(() =>
          setImmediate(() => {
            if (!settled) {
              busy(500);
              held = true;
            }
            resolve();
          }),
        ),
      );
      const r = await pending;
      if (!held) continue;
      assert.is(r.replies[0]?.status, 'reply', JSON.stringify(r.replies));
      assert.ok(r.replies[0]!.rttMs! < 100, JSON.stringify(r.replies));
      return;
    }
    assert.unreachable('every reply was read before the loop got busy');
  } finally {
    await stop(responder);
    drop(ns);
  }
});

test('a responder that answers every echo twice shows duplicates without counting them as received', async () => {
  const ns = netns();
  const responder = await startResponder(ns, ['--copies', '2']);
  try {
    const r = await pinger.ping({ address: ip(ns.nsV4), count: 4, intervalMs: 50, timeoutMs: 1000, size: 56 });
    assert.is(r.packets.sent, 4);
    assert.is(r.packets.received, 4);
    assert.is(r.packets.lossPercent, 0);
    // The last echo's copy may arrive after the session settled; every earlier one is counted.
    assert.ok(r.packets.duplicates >= 3 && r.packets.duplicates <= 4, `duplicates ${r.packets.duplicates}`);
  } finally {
    await stop(responder);
    drop(ns);
  }
});

test('with 50% random drop the loss over 40 echoes lies between 20% and 80%', async () => {
  // Binomial(40, 0.5): the chance of falling outside 8..32 lost is below 1e-4.
  const ns = netns();
  try {
    ns.exec(['iptables', '-A', 'INPUT', '-p', 'icmp', '-m', 'statistic', '--mode', 'random', '--probability', '0.5', '-j', 'DROP']);
    const runs = await Promise.all(
      Array.from({ length: 4 }, () =>
        pinger.ping({ address: ip(ns.nsV4), count: 10, intervalMs: 30, timeoutMs: 300, size: 56 }),
      ),
    );
    const sent = runs.reduce((a, r) => a + r.packets.sent, 0);
    const received = runs.reduce((a, r) => a + r.packets.received, 0);
    assert.is(sent, 40);
    const loss = ((sent - received) / sent) * 100;
    assert.ok(loss >= 20 && loss <= 80, `loss ${loss}%`);
    for (const r of runs) {
      const lost = r.replies.filter((x) => x.status === 'timeout').length;
      assert.is(r.packets.received + lost, 10);
      assert.is(r.packets.lossPercent, Math.round(lost * 10 * 1000) / 1000);
    }
  } finally {
    drop(ns);
  }
});

test('a host that ignores echo gives 100% loss, no RTT and a timeout for every echo', async () => {
  const ns = netns();
  try {
    ns.exec(['sysctl', '-qw', 'net.ipv4.icmp_echo_ignore_all=1']);
    ns.exec(['sysctl', '-qw', 'net.ipv6.icmp.echo_ignore_all=1']);
    for (const [address, family] of [[ns.nsV4, 4], [ns.nsV6, 6]] as const) {
      const r = await pinger.ping({ address: ip(address), count: 3, intervalMs: 30, timeoutMs: 200, size: 56 });
      assert.equal(r.packets, { sent: 3, received: 0, duplicates: 0, lossPercent: 100 });
      assert.is(r.rtt, null);
      assert.equal(r.replies.map((x) => x.status), ['timeout', 'timeout', 'timeout']);
    }
  } finally {
    drop(ns);
  }
});

test('an IPv4 host that rejects with host-unreachable yields unreachable replies from its address', async () => {
  const ns = netns();
  try {
    ns.exec(['iptables', '-A', 'INPUT', '-p', 'icmp', '-j', 'REJECT', '--reject-with', 'icmp-host-unreachable']);
    const r = await pinger.ping({ address: ip(ns.nsV4), count: 2, intervalMs: 30, timeoutMs: 1000, size: 56 });
    assert.is(r.packets.received, 0);
    for (const reply of r.replies) {
      assert.equal(reply, { seq: reply.seq, status: 'unreachable', from: ns.nsV4, reason: 'host-unreachable' });
    }
  } finally {
    drop(ns);
  }
});

test('a rejection for one ping does not disturb another ping sent in the same loop turn', async () => {
  const ns = netns();
  try {
    ns.exec(['iptables', '-A', 'INPUT', '-p', 'icmp', '-j', 'REJECT', '--reject-with', 'icmp-admin-prohibited']);
    const opts = { count: 5, intervalMs: 20, timeoutMs: 1000, size: 56 };
    const [rejected, good] = await Promise.all([
      pinger.ping({ ...opts, address: ip(ns.nsV4) }),
      pinger.ping({ ...opts, address: ip('127.0.0.1') }),
    ]);
    assert.equal(rejected.replies.map((r) => r.reason), Array(5).fill('admin-prohibited'));
    assert.equal(good.packets, { sent: 5, received: 5, duplicates: 0, lossPercent: 0 });
  } finally {
    drop(ns);
  }
});

test('an IPv6 host that rejects yields unreachable replies with the ICMPv6 reason and its address', async () => {
  const ns = netns();
  try {
    const reject = (how: string): void => {
      ns.exec(['ip6tables', '-F', 'INPUT']);
      ns.exec(['ip6tables', '-A', 'INPUT', '-p', 'ipv6-icmp', '--icmpv6-type', 'echo-request', '-j', 'REJECT', '--reject-with', how]);
    };
    reject('icmp6-adm-prohibited');
    let r = await pinger.ping({ address: ip(ns.nsV6), count: 2, intervalMs: 30, timeoutMs: 1000, size: 56 });
    for (const reply of r.replies) {
      assert.equal(reply, { seq: reply.seq, status: 'unreachable', from: ns.nsV6, reason: 'admin-prohibited' });
    }
    reject('icmp6-addr-unreachable');
    r = await pinger.ping({ address: ip(ns.nsV6), count: 1, intervalMs: 30, timeoutMs: 1000, size: 56 });
    assert.equal(r.replies[0], { seq: 0, status: 'unreachable', from: ns.nsV6, reason: 'address-unreachable' });
  } finally {
    drop(ns);
  }
});

test('a TTL of 1 to a host one hop beyond the namespace yields time-exceeded from the namespace', async () => {
  const ns = netns();
  try {
    ns.routeBeyond();
    const r4 = await pinger.ping({ address: ip(ns.beyondV4), count: 2, intervalMs: 30, timeoutMs: 1000, size: 56, ttl: 1 });
    for (const reply of r4.replies) {
      assert.equal(reply, { seq: reply.seq, status: 'time-exceeded', from: ns.nsV4, reason: 'ttl-exceeded' });
    }
    const r6 = await pinger.ping({ address: ip(ns.beyondV6), count: 1, intervalMs: 30, timeoutMs: 1000, size: 56, ttl: 1 });
    assert.equal(r6.replies[0], { seq: 0, status: 'time-exceeded', from: ns.nsV6, reason: 'hop-limit-exceeded' });
  } finally {
    drop(ns);
  }
});

test('pings to the namespace over IPv6 are answered', async () => {
  const ns = netns();
  try {
    // A new link's first IPv6 packet waits for neighbour discovery, whose retry is a second: on a loaded
    // machine that first echo timed out. Once the neighbour is known, every echo must be answered.
    await pinger.ping({ address: ip(ns.nsV6), count: 1, intervalMs: 30, timeoutMs: 3000, size: 56 });
    const r = await pinger.ping({ address: ip(ns.nsV6), count: 2, intervalMs: 30, timeoutMs: 1000, size: 56 });
    assert.equal(r.packets, { sent: 2, received: 2, duplicates: 0, lossPercent: 0 });
    assert.is(r.replies[0]!.ttl, 64);
  } finally {
    drop(ns);
  }
});

test.run();
