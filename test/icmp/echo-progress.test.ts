// Each echo reported the moment its outcome is decided (Pinger.start's onEcho), on loopback.
import { performance } from 'node:perf_hooks';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EchoOptions, EchoOutcome, EchoReply, Pinger } from '../../src/engines/icmp';
import { openPinger } from '../../src/engines/icmp/pinger';
import { ip } from '../support/address';

let pinger: Pinger;

test.before(() => {
  pinger = openPinger();
});

test.after(() => {
  pinger.close();
});

interface Seen {
  echoes: Array<{ echo: EchoReply; atMs: number }>;
  outcome: EchoOutcome;
  doneAtMs: number;
  startedAtMs: number;
}

// Runs one ping to its end, noting when each event came.
function watch(options: EchoOptions): Promise<Seen> {
  return new Promise((resolve) => {
    const echoes: Seen['echoes'] = [];
    const startedAtMs = performance.now();
    pinger.start(
      options,
      (outcome) => resolve({ echoes, outcome, doneAtMs: performance.now(), startedAtMs }),
      (echo) => echoes.push({ echo, atMs: performance.now() }),
    );
  });
}

const FIVE: EchoOptions = { address: ip('127.0.0.1'), count: 5, intervalMs: 200, timeoutMs: 1000, size: 56 };

test('a 5-echo ping at 200 ms reports one reply per echo in seq order, each before the result', async () => {
  const seen = await watch(FIVE);
  assert.equal(seen.echoes.map((e) => [e.echo.seq, e.echo.status]), [[0, 'reply'], [1, 'reply'], [2, 'reply'], [3, 'reply'], [4, 'reply']]);
  for (const e of seen.echoes) assert.ok(e.atMs <= seen.doneAtMs);
});

test('echoes arrive as they happen: each no earlier than its send time, the first well before the result', async () => {
  const seen = await watch(FIVE);
  // Echo k is not sent before k intervals have passed, so its report cannot come earlier either.
  seen.echoes.forEach((e, k) => assert.ok(e.atMs - seen.startedAtMs >= k * 200 - 5, `echo ${k} at ${e.atMs - seen.startedAtMs} ms`));
  assert.ok(seen.doneAtMs - seen.echoes[0]!.atMs >= 400, `first echo ${seen.doneAtMs - seen.echoes[0]!.atMs} ms before the result`);
});

test('the reported echoes equal the result\'s replies item for item', async () => {
  const seen = await watch({ ...FIVE, address: ip('::1'), intervalMs: 100 });
  assert.ok(seen.outcome.ok);
  if (!seen.outcome.ok) return;
  assert.equal(seen.echoes.map((e) => e.echo), seen.outcome.echo.replies);
});

test('a ping without onEcho gets the same shape of result as before', async () => {
  const r = await new Promise<EchoOutcome>((resolve) => pinger.start({ ...FIVE, count: 2, intervalMs: 100 }, resolve));
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.equal(r.echo.replies.map((x) => [x.seq, x.status]), [[0, 'reply'], [1, 'reply']]);
  assert.equal(r.echo.packets, { sent: 2, received: 2, duplicates: 0, lossPercent: 0 });
});

test('stopping the ping from onEcho ends it there: no further echo and no result', async () => {
  const echoes: number[] = [];
  let done = false;
  let sentAtStop = 0;
  await new Promise<void>((resolve) => {
    const stop = pinger.start({ ...FIVE, intervalMs: 100 }, () => (done = true), (echo) => {
      echoes.push(echo.seq);
      if (echo.seq === 1) {
        stop();
        sentAtStop = pinger.stats().v4.sent;
        resolve();
      }
    });
  });
  assert.is(pinger.stats().sessions, 0);
  // A ping of the same pace started now ends after the stopped one's next echoes were due: by then the
  // engine has sent its two echoes and nothing for the stopped ping.
  const witness = await watch({ ...FIVE, count: 3, intervalMs: 100 });
  assert.ok(witness.outcome.ok);
  assert.is(pinger.stats().v4.sent - sentAtStop, 3);
  assert.equal(echoes, [0, 1]);
  assert.is(done, false);
});

test('closing the pinger from onEcho settles the ping as closed and reports nothing more', async () => {
  const own = openPinger();
  const echoes: number[] = [];
  const outcome = await new Promise<EchoOutcome>((resolve) => {
    own.start({ ...FIVE, intervalMs: 100 }, resolve, (echo) => {
      echoes.push(echo.seq);
      own.close();
    });
  });
  assert.equal(echoes, [0]);
  assert.is(outcome.ok, false);
  if (!outcome.ok) assert.is(outcome.error.code, 'engine-closed');
});

test.run();
