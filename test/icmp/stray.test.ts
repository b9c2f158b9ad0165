import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openPinger } from '../../src/engines/icmp';

// A raw socket sees every ICMP reply on the host: another engine's replies must be dropped and counted.
test('replies to another engine are counted as stray and never delivered', async () => {
  if (process.getuid?.() !== 0) return;
  const pinging = openPinger({ kind: 'raw' });
  const watching = openPinger({ kind: 'raw' });
  try {
    const before = watching.stats().v4.stray;
    const result = await pinging.ping({ address: '127.0.0.1', family: 4, count: 3, intervalMs: 100, timeoutMs: 500, size: 16 });
    assert.is(result.packets.received, 3);
    await new Promise((r) => setTimeout(r, 50)); // let the watching socket drain what it saw
    assert.ok(watching.stats().v4.stray - before >= 3, `stray ${watching.stats().v4.stray - before}`);
    assert.is(watching.stats().sessions, 0);
  } finally {
    pinging.close();
    watching.close();
  }
});

test.run();
