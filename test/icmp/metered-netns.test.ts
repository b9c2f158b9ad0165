// A metered ping (Pinger.startMetered) against test hosts in network namespaces: echoes lost or answered
// twice, across grants.
import { once } from 'node:events';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EchoOptions, EchoStatus, MeteredOutcome, Pinger } from '../../src/engines/icmp';
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

// Granted `grant` at a time, each grant once every echo granted before it is decided.
function metered(options: EchoOptions, grant: number): Promise<{ echoes: Array<{ seq: number; status: EchoStatus }>; outcome: MeteredOutcome }> {
  return new Promise((resolve) => {
    const echoes: Array<{ seq: number; status: EchoStatus }> = [];
    let granted = grant;
    const ping = pinger.startMetered(options, grant, (outcome) => resolve({ echoes, outcome }), {
      echo(seq, status) {
        echoes.push({ seq, status });
        if (echoes.length === granted && granted < options.count) {
          const more = Math.min(grant, options.count - granted);
          granted += more;
          const refused = ping.extend(more);
          if (refused !== null) throw refused;
        }
      },
    });
  });
}

test('lost echoes are reported as timeouts, and the grants after them go out', async () => {
  const ns = netns();
  try {
    // Every second echo request dropped: seq 1, 3 and 5 of six are lost, whatever the timing.
    ns.exec(['iptables', '-A', 'INPUT', '-p', 'icmp', '--icmp-type', 'echo-request', '-m', 'statistic', '--mode', 'nth', '--every', '2', '--packet', '1', '-j', 'DROP']);
    const { echoes, outcome } = await metered({ address: ip(ns.nsV4), count: 6, intervalMs: 100, timeoutMs: 150, size: 56 }, 3);
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(
      echoes.sort((a, b) => a.seq - b.seq).map((e) => e.status),
      ['reply', 'timeout', 'reply', 'timeout', 'reply', 'timeout'],
    );
  } finally {
    drop(ns);
  }
});

test('replies answered twice count as duplicates in its end, one report per echo', async () => {
  const ns = netns();
  const responder = await startResponder(ns, ['--copies', '2']);
  try {
    const { echoes, outcome } = await metered({ address: ip(ns.nsV4), count: 6, intervalMs: 100, timeoutMs: 1000, size: 56 }, 3);
    assert.equal(echoes.map((e) => e.seq).sort((a, b) => a - b), [0, 1, 2, 3, 4, 5]);
    assert.ok(outcome.ok, JSON.stringify(outcome));
    // The last echo of a grant and of the ping may be let go before its copy comes: the others may not.
    if (outcome.ok) assert.ok(outcome.duplicates >= 4, `duplicates ${outcome.duplicates}`);
  } finally {
    responder.kill('SIGTERM');
    await once(responder, 'exit');
    drop(ns);
  }
});

test.run();
