import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openPinger } from '../../src/engines/icmp/pinger';
import { waitFor } from '../support/wait';
import { notRoot, testUnless } from '../support/capability';
import { ip } from '../support/address';

// A raw socket sees every ICMP reply on the host: another engine's replies must be dropped and counted.
testUnless(test, notRoot())('replies to another engine are counted as stray and never delivered', async () => {
  const pinging = openPinger({ kind: 'raw' });
  const watching = openPinger({ kind: 'raw' });
  try {
    const before = watching.stats().v4.stray;
    const result = await pinging.ping({ address: ip('127.0.0.1'), count: 3, intervalMs: 100, timeoutMs: 500, size: 16 });
    assert.is(result.packets.received, 3);
    await waitFor('the watching socket to count what it saw', () => watching.stats().v4.stray - before >= 3);
    assert.ok(watching.stats().v4.stray - before >= 3, `stray ${watching.stats().v4.stray - before}`);
    assert.is(watching.stats().sessions, 0);
  } finally {
    pinging.close();
    watching.close();
  }
});

test.run();
