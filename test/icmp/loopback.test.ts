import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EchoResult, Pinger } from '../../src/engines/icmp';
import { openPinger } from '../../src/engines/icmp/pinger';
import { notRoot, testUnless } from '../support/capability';
import { ip } from '../support/address';

let pinger: Pinger;

test.before(() => {
  pinger = openPinger();
});

test.after(() => {
  pinger.close();
});

function assertAllReplied(r: EchoResult, count: number, timeoutMs: number): void {
  assert.is(r.replies.length, count);
  r.replies.forEach((reply, i) => {
    assert.is(reply.seq, i);
    assert.is(reply.status, 'reply');
    assert.ok(reply.rttMs! > 0, `rtt ${reply.rttMs} > 0`);
    assert.ok(reply.rttMs! < timeoutMs, `rtt ${reply.rttMs} < timeout`);
    assert.is(reply.ttl, 64);
  });
  assert.equal(r.packets, { sent: count, received: count, duplicates: 0, lossPercent: 0 });
}

function assertStatsAddUp(r: EchoResult): void {
  const rtts = r.replies.map((x) => x.rttMs!);
  const rtt = r.rtt!;
  assert.ok(rtt.minMs <= rtt.avgMs && rtt.avgMs <= rtt.maxMs);
  assert.ok(Math.abs(rtt.minMs - Math.min(...rtts)) <= 0.001);
  assert.ok(Math.abs(rtt.maxMs - Math.max(...rtts)) <= 0.001);
  const mean = rtts.reduce((a, b) => a + b, 0) / rtts.length;
  assert.ok(Math.abs(rtt.avgMs - mean) <= 0.002);
  assert.ok(rtt.stddevMs >= 0 && rtt.stddevMs <= rtt.maxMs - rtt.minMs + 0.001);
}

testUnless(test, notRoot())('as root the engine opens an ICMP socket for both families', () => {
  assert.ok(pinger.socketKinds.v4 !== null);
  assert.ok(pinger.socketKinds.v6 !== null);
  assert.equal(pinger.socketKinds.reasons, {});
});

test('every echo to 127.0.0.1 is answered with a positive RTT below the timeout', async () => {
  const r = await pinger.ping({ address: ip('127.0.0.1'), count: 4, intervalMs: 20, timeoutMs: 1000, size: 56 });
  assertAllReplied(r, 4, 1000);
  assert.is(r.replies[0]!.bytes, 64);
  assertStatsAddUp(r);
});

test('every echo to ::1 is answered with a positive RTT below the timeout', async () => {
  const r = await pinger.ping({ address: ip('::1'), count: 4, intervalMs: 20, timeoutMs: 1000, size: 56 });
  assertAllReplied(r, 4, 1000);
  assertStatsAddUp(r);
});

test('a ping of more echoes than the engine packs in its own result array (64) reports every one in order', async () => {
  const r = await pinger.ping({ address: ip('127.0.0.1'), count: 100, intervalMs: 1, timeoutMs: 1000, size: 8 });
  assertAllReplied(r, 100, 1000);
});

test('the session lasts about count-1 intervals when replies are fast', async () => {
  const r = await pinger.ping({ address: ip('127.0.0.1'), count: 3, intervalMs: 100, timeoutMs: 1000, size: 8 });
  assert.ok(r.durationMs >= 200, `durationMs ${r.durationMs}`);
  assert.ok(r.durationMs < 1000, `durationMs ${r.durationMs}`);
});

test('payloads smaller than the cookie still match replies (sizes 0 and 3)', async () => {
  for (const size of [0, 3]) {
    const r = await pinger.ping({ address: ip('127.0.0.1'), count: 2, intervalMs: 10, timeoutMs: 1000, size });
    assertAllReplied(r, 2, 1000);
    assert.is(r.replies[0]!.bytes, 8 + size);
  }
});

test('a payload of odd length (checksum trailing byte) and the maximum size are answered', async () => {
  for (const size of [57, 1400]) {
    const r = await pinger.ping({ address: ip('127.0.0.1'), count: 1, intervalMs: 10, timeoutMs: 1000, size });
    assertAllReplied(r, 1, 1000);
    assert.is(r.replies[0]!.bytes, 8 + size);
  }
});

test('a per-packet TTL is accepted and the reply still comes back', async () => {
  const r = await pinger.ping({ address: ip('127.0.0.1'), count: 2, intervalMs: 10, timeoutMs: 1000, size: 8, ttl: 3 });
  assertAllReplied(r, 2, 1000);
  const r6 = await pinger.ping({ address: ip('::1'), count: 1, intervalMs: 10, timeoutMs: 1000, size: 8, ttl: 3 });
  assertAllReplied(r6, 1, 1000);
});

test('200 concurrent pings to different loopback addresses each get only their own replies', async () => {
  // Each ping uses its own payload size, so a reply delivered to the wrong session shows in `bytes`.
  const jobs = Array.from({ length: 200 }, (_, i) => {
    const address = `127.0.${1 + (i >> 7)}.${1 + (i & 127)}`;
    return pinger
      .ping({ address: ip(address), count: 3, intervalMs: 20, timeoutMs: 2000, size: 16 + i })
      .then((r) => ({ i, r }));
  });
  const results = await Promise.all(jobs);
  for (const { i, r } of results) {
    assert.equal(r.packets, { sent: 3, received: 3, duplicates: 0, lossPercent: 0 });
    for (const reply of r.replies) assert.is(reply.bytes, 8 + 16 + i, `ping ${i}`);
  }
  assert.is(pinger.stats().v4.inFlight, 0);
});

test('aborting a ping stops it promptly, rejects with code aborted and frees its sequences', async () => {
  const ac = new AbortController();
  const started = Date.now();
  const pending = pinger.ping({ address: ip('127.0.0.1'), count: 10, intervalMs: 1000, timeoutMs: 1000, size: 8 }, ac.signal);
  setTimeout(() => ac.abort(), 50);
  const err = await pending.then(() => null, (e: unknown) => e);
  assert.is((err as { code?: string }).code, 'aborted');
  assert.ok(Date.now() - started < 900);
  assert.is(pinger.stats().v4.inFlight, 0);
  assert.is(pinger.stats().sessions, 0);
});

test('an already aborted signal rejects without sending', async () => {
  const ac = new AbortController();
  ac.abort(new Error('client went away'));
  const err = await pinger
    .ping({ address: ip('127.0.0.1'), count: 1, intervalMs: 10, timeoutMs: 100, size: 8 }, ac.signal)
    .then(() => null, (e: unknown) => e);
  assert.is((err as { code?: string }).code, 'aborted');
  assert.is((err as Error).message, 'client went away');
});

test('out-of-range options are refused by the engine with invalid-options', async () => {
  const base = { address: ip('127.0.0.1'), count: 1, intervalMs: 10, timeoutMs: 100, size: 8 };
  for (const bad of [
    { ...base, count: 0 },
    { ...base, size: 1401 },
    { ...base, ttl: 0 },
  ]) {
    const err = await pinger.ping(bad).then(() => null, (e: unknown) => e);
    assert.is((err as { code?: string }).code, 'invalid-options', JSON.stringify(bad));
  }
});

test('an address whose bytes do not match its family, or an IPv4-mapped IPv6, is refused by the engine with invalid-address', async () => {
  const base = { count: 1, intervalMs: 10, timeoutMs: 100, size: 8 };
  for (const address of [{ ...ip('127.0.0.1'), family: 6 as const }, { ...ip('::1'), family: 4 as const }, { ...ip('::1'), bytes: ip('::ffff:7f00:1').bytes }]) {
    const err = await pinger.ping({ ...base, address }).then(() => null, (e: unknown) => e);
    assert.is((err as { code?: string }).code, 'invalid-address', address.text);
  }
});

test('a closed pinger refuses new pings with engine-closed', async () => {
  const p = openPinger();
  p.close();
  const err = await p
    .ping({ address: ip('127.0.0.1'), count: 1, intervalMs: 10, timeoutMs: 100, size: 8 })
    .then(() => null, (e: unknown) => e);
  assert.is((err as { code?: string }).code, 'engine-closed');
  const none = { inFlight: 0, drops: 0, stray: 0, strayErrors: 0, sent: 0, traceSent: 0 };
  assert.equal(p.stats(), { v4: none, v6: none, sessions: 0 });
  p.close();
});

test('closing the pinger with pings in flight rejects them with engine-closed', async () => {
  const p = openPinger();
  const pending = p.ping({ address: ip('127.0.0.1'), count: 5, intervalMs: 1000, timeoutMs: 1000, size: 8 });
  p.close();
  const err = await pending.then(() => null, (e: unknown) => e);
  assert.is((err as { code?: string }).code, 'engine-closed');
  assert.is(p.stats().sessions, 0);
});

test('when every sequence of a socket is in flight a new ping is refused with seq-exhausted', async () => {
  const p = openPinger();
  const ac = new AbortController();
  try {
    // Six sessions of 10,000 echoes hold 60,000 of the 65,536 sequences (only their first echo goes out).
    const held = Array.from({ length: 6 }, () =>
      p.ping({ address: ip('127.0.0.1'), count: 10000, intervalMs: 60000, timeoutMs: 1000, size: 8 }, ac.signal).catch(() => null),
    );
    assert.is(p.stats().v4.inFlight, 60000);
    const err = await p
      .ping({ address: ip('127.0.0.1'), count: 10000, intervalMs: 10, timeoutMs: 100, size: 8 })
      .then(() => null, (e: unknown) => e);
    assert.is((err as { code?: string }).code, 'seq-exhausted');
    // The other family has its own socket and its own sequences.
    const v6 = await p.ping({ address: ip('::1'), count: 1, intervalMs: 10, timeoutMs: 1000, size: 8 });
    assert.is(v6.packets.received, 1);
    ac.abort();
    await Promise.all(held);
    assert.is(p.stats().v4.inFlight, 0);
  } finally {
    p.close();
  }
});

testUnless(test, notRoot())('forcing the raw kind as root opens raw sockets with one random identifier', () => {
  const p = openPinger({ kind: 'raw' });
  try {
    assert.is(p.socketKinds.v4, 'raw');
    assert.is(p.socketKinds.v6, 'raw');
  } finally {
    p.close();
  }
});

test.run();
