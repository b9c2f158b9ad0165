// A metered ping (Pinger.startMetered): one engine session for a whole long ping, which sends only the
// echoes granted so far and holds the sequences of its latest grants, not of its count. Real pings of
// 127.0.0.1 on the real engine.
import { performance } from 'node:perf_hooks';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { EchoOptions, EchoStatus, MeteredOutcome, MeteredPing, Pinger } from '../../src/engines/icmp';
import { IcmpError } from '../../src/engines/icmp/errors';
import { openPinger } from '../../src/engines/icmp/pinger';
import { ip } from '../support/address';

const test = suite<{ pinger: Pinger }>('a metered ping');

test.before((ctx) => {
  ctx.pinger = openPinger();
});

test.after((ctx) => {
  ctx.pinger?.close();
});

interface Watched {
  ping: MeteredPing;
  echoes: Array<{ seq: number; status: EchoStatus; rttMs: number; atMs: number }>;
  ended: Promise<MeteredOutcome>;
  // Resolves once `n` echoes in all have been decided.
  decided(n: number): Promise<void>;
}

function watch(pinger: Pinger, options: EchoOptions, grant: number): Watched {
  const echoes: Watched['echoes'] = [];
  const waiting: Array<{ n: number; go: () => void }> = [];
  let end!: (outcome: MeteredOutcome) => void;
  const ended = new Promise<MeteredOutcome>((resolve) => (end = resolve));
  const ping = pinger.startMetered(options, grant, end, {
    echo(seq, status, rttMs) {
      echoes.push({ seq, status, rttMs, atMs: performance.now() });
      for (const w of waiting.filter((w) => echoes.length >= w.n)) w.go();
    },
  });
  const decided = (n: number): Promise<void> => (echoes.length >= n ? Promise.resolve() : new Promise((go) => waiting.push({ n, go })));
  return { ping, echoes, ended, decided };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const loopback = (count: number, intervalMs: number): EchoOptions => ({ address: ip('127.0.0.1'), count, intervalMs, timeoutMs: 1000, size: 56 });

test('sends only the echoes granted, then waits: none more goes out until extend grants them', async ({ pinger }) => {
  const sentBefore = pinger.stats().v4.sent;
  const w = watch(pinger, loopback(20, 5), 5);
  await w.decided(5);
  await sleep(100); // twenty intervals: fifteen more would have gone out by now
  assert.equal(w.echoes.map((e) => e.seq), [0, 1, 2, 3, 4]);
  assert.is(pinger.stats().v4.sent - sentBefore, 5);
  assert.is(w.ping.extend(15), null);
  const outcome = await w.ended;
  assert.ok(outcome.ok, JSON.stringify(outcome));
  if (outcome.ok) {
    assert.is(outcome.duplicates, 0);
    assert.ok(outcome.durationMs >= 19 * 5, `${outcome.durationMs} ms`);
  }
  assert.equal(w.echoes.map((e) => e.seq).sort((a, b) => a - b), [...Array(20).keys()]);
  assert.ok(w.echoes.every((e) => e.status === 'reply' && e.rttMs >= 0), JSON.stringify(w.echoes));
  assert.is(pinger.stats().v4.sent - sentBefore, 20);
});

test('echoes granted late go out at the pace from the grant, not together', async ({ pinger }) => {
  const intervalMs = 20;
  const w = watch(pinger, loopback(8, intervalMs), 2);
  await w.decided(2);
  await sleep(8 * intervalMs); // every other echo's place has passed
  const grantedAt = performance.now();
  assert.is(w.ping.extend(6), null);
  const outcome = await w.ended;
  assert.ok(outcome.ok, JSON.stringify(outcome));
  // A reply is heard after its echo went out: one heard before its place after the grant went out early.
  w.echoes.slice(2).forEach((e, j) => assert.ok(e.atMs - grantedAt >= j * intervalMs, `echo ${e.seq} at ${e.atMs - grantedAt} ms after the grant`));
});

test('holds the sequences of its latest grants, not of its count, and none once it ended', async ({ pinger }) => {
  const inFlight = (): number => pinger.stats().v4.inFlight;
  const before = inFlight();
  const w = watch(pinger, loopback(100, 1), 10);
  const held: number[] = [];
  for (let granted = 10; granted < 100; granted += 10) {
    await w.decided(granted);
    assert.is(w.ping.extend(10), null);
    held.push(inFlight() - before);
  }
  const outcome = await w.ended;
  assert.ok(outcome.ok, JSON.stringify(outcome));
  assert.ok(held.every((n) => n <= 20), JSON.stringify(held));
  assert.is(inFlight(), before);
  assert.is(w.echoes.length, 100);
});

test('a grant past its count, or of nothing, is refused as invalid options, and the ping goes on', async ({ pinger }) => {
  const w = watch(pinger, loopback(12, 1), 10);
  for (const echoes of [3, 0]) {
    const refused = w.ping.extend(echoes);
    assert.instance(refused, IcmpError);
    assert.is(refused?.code, 'invalid-options');
  }
  assert.is(w.ping.extend(2), null);
  const outcome = await w.ended;
  assert.ok(outcome.ok, JSON.stringify(outcome));
  assert.is(w.echoes.length, 12);
});

test('stopped while it waits for a grant: no end comes, and its sequences go back', async ({ pinger }) => {
  const before = pinger.stats().v4.inFlight;
  let ended = false;
  const w = watch(pinger, loopback(20, 1), 10);
  void w.ended.then(() => (ended = true));
  await w.decided(10);
  w.ping.stop();
  assert.is(pinger.stats().v4.inFlight, before);
  assert.is(w.ping.extend(10), null); // the session is gone: nothing to grant
  await sleep(50);
  assert.not.ok(ended);
  assert.is(w.echoes.length, 10);
});

test('a grant the socket has no sequences for is refused whole as seq-exhausted, and granted once they are back', async () => {
  const pinger = openPinger();
  try {
    const w = watch(pinger, loopback(2, 1), 1);
    await w.decided(1);
    // Every other sequence of the socket, held by plain pings that wait a minute between echoes.
    const holders: Array<() => void> = [];
    for (let left = 65535; left > 0; left -= 10000) {
      holders.push(pinger.start({ address: ip('127.0.0.1'), count: Math.min(10000, left), intervalMs: 60000, timeoutMs: 60000, size: 0 }, () => undefined));
    }
    const refused = w.ping.extend(1);
    assert.instance(refused, IcmpError);
    assert.is(refused?.code, 'seq-exhausted');
    holders.pop()!();
    assert.is(w.ping.extend(1), null);
    const outcome = await w.ended;
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(w.echoes.map((e) => e.seq), [0, 1]);
    for (const stop of holders) stop();
  } finally {
    pinger.close();
  }
});

test('the engine refuses a metered ping that does not report its echoes (nobody would hear them), or a grant past its count', async () => {
  const { nativeEngineClass } = await import('../../src/engines/icmp/native');
  const Engine = nativeEngineClass();
  const engine = new Engine('auto', () => undefined);
  try {
    const bytes = Uint8Array.from([127, 0, 0, 1]);
    assert.throws(() => engine.ping(bytes, 4, 20, 1, 1000, 0, -1, () => undefined, false, 10), (err: Error & { code?: string }) => err.code === 'invalid-options');
    assert.throws(() => engine.ping(bytes, 4, 20, 1, 1000, 0, -1, () => undefined, true, 21), (err: Error & { code?: string }) => err.code === 'invalid-options');
  } finally {
    engine.close();
  }
});

test.run();
