// With hundreds of pings at a slow pace on one engine, its timer takes a few milliseconds of slack, so
// that one wake-up sends every echo due over them instead of one wake-up a millisecond; a ping with a
// tight pace turns the slack off while it lives. Either way no echo goes out before its place.
import { performance } from 'node:perf_hooks';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Pinger } from '../../src/engines/icmp';
import { openPinger } from '../../src/engines/icmp/pinger';
import { ip } from '../support/address';

let pinger: Pinger;

test.before(() => {
  pinger = openPinger();
});

test.after(() => {
  pinger.close();
});

const SLOW = 300; // above the 256 waiting sessions from which the engine takes slack

interface Spread {
  // Engine frames (one wake-up's replies, handed over in one call) that held a second echo.
  framesOfSecondEchoes: number;
  early: string[];
  notReplies: number;
}

// SLOW pings of three echoes, ping i every 300 + i ms: their second echoes fall due one a millisecond
// over 300 ms, while every ping still waits for its third. Replies on loopback are read in the frame
// after the wake-up that sent them, so the frames that hold second echoes count those wake-ups.
async function spreadPings(): Promise<Spread> {
  let frames = 0;
  let inFrame = false;
  const early: string[] = [];
  let notReplies = 0;
  const runs = Array.from({ length: SLOW }, (_, i) => {
    const intervalMs = 300 + i;
    const startedAtMs = performance.now();
    return new Promise<void>((resolve) => {
      pinger.start(
        { address: ip('127.0.0.1'), count: 3, intervalMs, timeoutMs: 2000, size: 56 },
        () => resolve(),
        (echo) => {
          const atMs = performance.now() - startedAtMs;
          if (echo.status !== 'reply') notReplies++;
          // The engine stamps its start after ours and sends before it hears the reply.
          if (atMs < echo.seq * intervalMs) early.push(`ping ${i} echo ${echo.seq} at ${atMs.toFixed(1)} ms`);
          if (echo.seq !== 1 || inFrame) return;
          // The echoes of one frame are handed over in one call: microtasks run only after it returns.
          frames++;
          inFrame = true;
          queueMicrotask(() => (inFrame = false));
        },
      );
    });
  });
  await Promise.all(runs);
  return { framesOfSecondEchoes: frames, early, notReplies };
}

test('300 slow pings: echoes due one a millisecond go out in fewer than 120 wake-ups, none before its place', async () => {
  const spread = await spreadPings();
  assert.is(spread.notReplies, 0);
  assert.equal(spread.early, []);
  assert.ok(spread.framesOfSecondEchoes < 120, `${spread.framesOfSecondEchoes} wake-ups for ${SLOW} echoes`);
});

test('a live ping 20 ms apart turns the slack off: the same echoes take more than 120 wake-ups', async () => {
  let fastDone = false;
  const fast = new Promise<void>((resolve) => {
    pinger.start({ address: ip('127.0.0.1'), count: 100, intervalMs: 20, timeoutMs: 1000, size: 56 }, () => {
      fastDone = true;
      resolve();
    });
  });
  const spread = await spreadPings();
  assert.not.ok(fastDone, 'the fast ping outlives the second echoes');
  assert.is(spread.notReplies, 0);
  assert.equal(spread.early, []);
  assert.ok(spread.framesOfSecondEchoes > 120, `${spread.framesOfSecondEchoes} wake-ups for ${SLOW} echoes`);
  await fast;
});

test.run();
