// Echoes reported as they are decided (Pinger.start's onEcho) for outcomes other than a reply: a lost
// echo's timeout, a rejection's unreachable, duplicates. Test hosts in network namespaces.
import { once } from 'node:events';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EchoOptions, EchoReply, EchoResult, Pinger } from '../../src/engines/icmp';
import { openPinger } from '../../src/engines/icmp/pinger';
import { startResponder } from '../support/icmp-responder';
import { netnsTracker } from '../support/netns';
import { ip } from '../support/address';

let pinger: Pinger;
const { netns, drop, dropAll } = netnsTracker();

test.before(() => {
  pinger = openPinger();
});

test.after(() => {
  dropAll();
  pinger.close();
});

// The events in the order they came, each marked with whether the result had come yet, and the result.
function watch(options: EchoOptions): Promise<{ events: Array<{ echo: EchoReply; afterDone: boolean }>; result: EchoResult }> {
  return new Promise((resolve, reject) => {
    const events: Array<{ echo: EchoReply; afterDone: boolean }> = [];
    let done = false;
    pinger.start(
      options,
      (outcome) => {
        done = true;
        if (outcome.ok) resolve({ events, result: outcome.echo });
        else reject(outcome.error);
      },
      (echo) => events.push({ echo, afterDone: done }),
    );
  });
}

test('a lost echo is reported as a timeout when its timeout passes, before the result', async () => {
  const ns = netns();
  try {
    // Every second echo request dropped: seq 1 and 3 of four are lost, whatever the timing.
    ns.exec(['iptables', '-A', 'INPUT', '-p', 'icmp', '--icmp-type', 'echo-request', '-m', 'statistic', '--mode', 'nth', '--every', '2', '--packet', '1', '-j', 'DROP']);
    const { events, result } = await watch({ address: ip(ns.nsV4), count: 4, intervalMs: 200, timeoutMs: 150, size: 56 });
    assert.equal(result.replies.map((r) => r.status), ['reply', 'timeout', 'reply', 'timeout']);
    assert.equal(events.map((e) => e.echo), result.replies);
    assert.ok(events.every((e) => !e.afterDone));
  } finally {
    drop(ns);
  }
});

test('a rejected echo is reported as unreachable with the sender and reason, before the result', async () => {
  const ns = netns();
  try {
    ns.exec(['iptables', '-A', 'INPUT', '-p', 'icmp', '-j', 'REJECT', '--reject-with', 'icmp-host-unreachable']);
    const { events, result } = await watch({ address: ip(ns.nsV4), count: 3, intervalMs: 200, timeoutMs: 1000, size: 56 });
    const expected = [0, 1, 2].map((seq) => ({ seq, status: 'unreachable', from: ns.nsV4, reason: 'host-unreachable' }));
    assert.equal(events.map((e) => e.echo), expected);
    assert.equal(result.replies, expected);
    assert.ok(events.every((e) => !e.afterDone));
  } finally {
    drop(ns);
  }
});

test('a duplicate reply is no new event: one per echo, the duplicates only in the result', async () => {
  const ns = netns();
  const responder = await startResponder(ns, ['--copies', '2']);
  try {
    const { events, result } = await watch({ address: ip(ns.nsV4), count: 4, intervalMs: 100, timeoutMs: 1000, size: 56 });
    assert.equal(events.map((e) => e.echo.seq), [0, 1, 2, 3]);
    assert.equal(events.map((e) => e.echo), result.replies);
    assert.ok(result.packets.duplicates >= 3, `duplicates ${result.packets.duplicates}`);
  } finally {
    responder.kill('SIGTERM');
    await once(responder, 'exit');
    drop(ns);
  }
});

test.run();
