// Many pings of different paces on one engine, all woken by its one timer: each keeps its own pace, none
// sends early for another's sake and none waits for another's wake-up.
import { performance } from 'node:perf_hooks';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EchoOptions, EchoOutcome, Pinger } from '../../src/engines/icmp';
import { openPinger } from '../../src/engines/icmp/pinger';
import { ip } from '../support/address';

let pinger: Pinger;

test.before(() => {
  pinger = openPinger();
});

test.after(() => {
  pinger.close();
});

interface Paced {
  options: EchoOptions;
  startedAtMs: number;
  echoes: Array<{ seq: number; status: string; atMs: number }>;
  outcome: EchoOutcome;
  doneAtMs: number;
}

function paced(options: EchoOptions, onDone: (at: number) => void = () => undefined): Promise<Paced> {
  return new Promise((resolve) => {
    const echoes: Paced['echoes'] = [];
    const startedAtMs = performance.now();
    pinger.start(
      options,
      (outcome) => {
        const doneAtMs = performance.now();
        onDone(doneAtMs);
        resolve({ options, startedAtMs, echoes, outcome, doneAtMs });
      },
      (echo) => echoes.push({ seq: echo.seq, status: echo.status, atMs: performance.now() }),
    );
  });
}

const INTERVALS = [7, 13, 20, 31, 45, 60, 85, 110];
const COUNT = 5;

test('pings of eight different intervals at once each send echo k no earlier than k intervals after their start', async () => {
  const runs = await Promise.all(
    INTERVALS.flatMap((intervalMs) =>
      ['127.0.0.1', '::1'].map((address) => paced({ address: ip(address), count: COUNT, intervalMs, timeoutMs: 1000, size: 56 })),
    ),
  );
  for (const run of runs) {
    const { intervalMs } = run.options;
    assert.equal(run.echoes.map((e) => [e.seq, e.status]), [0, 1, 2, 3, 4].map((seq) => [seq, 'reply']));
    // The engine stamps its start after ours, and sends before it hears the reply: a reply reported
    // earlier than k intervals after our start went out early.
    run.echoes.forEach((e, k) => assert.ok(e.atMs - run.startedAtMs >= k * intervalMs, `interval ${intervalMs}: echo ${k} at ${e.atMs - run.startedAtMs} ms`));
    assert.ok(run.outcome.ok);
    if (run.outcome.ok) assert.ok(run.outcome.echo.durationMs >= (COUNT - 1) * intervalMs, `interval ${intervalMs}: ${run.outcome.echo.durationMs} ms`);
  }
});

test('a fast ping beside slow ones finishes while they are still pinging: no session waits for another\'s wake-up', async () => {
  const slowMs = 400;
  let slowEchoes = 0;
  const slowSeen: number[] = [];
  const slow = [0, 1, 2].map(() =>
    new Promise<void>((resolve) => {
      pinger.start({ address: ip('127.0.0.1'), count: 4, intervalMs: slowMs, timeoutMs: 1000, size: 56 }, () => resolve(), () => ++slowEchoes);
    }),
  );
  // Started after the slow ones, so each of its wake-ups falls between theirs.
  const fast = await paced({ address: ip('::1'), count: 6, intervalMs: 9, timeoutMs: 1000, size: 56 }, () => slowSeen.push(slowEchoes));
  assert.equal(fast.echoes.map((e) => e.status), Array(6).fill('reply'));
  // The slow pings' second echoes are due 400 ms in, long after the fast one's 45 ms: by its result
  // only their first echoes have come.
  assert.equal(slowSeen, [3]);
  await Promise.all(slow);
  assert.is(slowEchoes, 12);
});

test.run();
