import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { EchoOptions, EchoSink, MeteredOutcome, Pinger, RawEcho } from '../../src/engines/icmp';
import { openPinger } from '../../src/engines/icmp/pinger';
import { summarize } from '../../src/engines/icmp/stats';
import { Rounds, type RoundsOutcome } from '../../src/engines/icmp/rounds';
import { parseAddress } from '../../src/net/address';

// A long ping (several rounds of ten) keeps its statistics, not its echoes: each echo is folded in as it
// is decided and let go. Real pings of 127.0.0.1 on the real engine.
const test = suite<{ pinger: Pinger }>('a long ping keeps statistics, not echoes');

const ROUND = 10;
const address = parseAddress('127.0.0.1')!;
const FREE = (_round: number, _count: number, done: (stop: null) => void) => done(null);

test.before((ctx) => {
  ctx.pinger = openPinger();
});

test.after((ctx) => {
  ctx.pinger?.close();
});

function run(pinger: Pinger, count: number, seen: (run: Rounds<null>) => void): Promise<RoundsOutcome<null>> {
  return new Promise((resolve) => {
    const rounds: Rounds<null> = new Rounds(pinger, { address, count, intervalMs: 2, timeoutMs: 1000, size: 0 }, ROUND, FREE, resolve, () => seen(rounds));
    rounds.begin();
  });
}

test('a 60-echo ping holds no echo as it goes and ends with statistics alone', async ({ pinger }) => {
  let most = 0;
  const outcome = await run(pinger, 60, (r) => (most = Math.max(most, r.heldEchoes)));
  assert.ok(outcome.ok && 'totals' in outcome, JSON.stringify(outcome));
  if (!outcome.ok || !('totals' in outcome)) return;
  assert.not.ok('replies' in outcome.totals);
  assert.equal(outcome.totals.packets, { sent: 60, received: 60, duplicates: 0, lossPercent: 0 });
  assert.equal(outcome.totals.statuses, { reply: 60, timeout: 0, unreachable: 0, 'time-exceeded': 0 });
  assert.is(most, 0);
});

// The real engine, with the echoes of the first round held back from the ping until the second round's
// are all in: what the echoes after one that waits out its timeout do. Every echo is kept here, to compare;
// `between` is called once the second round's echoes are in and before the first's.
function firstRoundLast(pinger: Pinger, raw: RawEcho[], between: () => void): Pinger {
  const startMetered = (options: EchoOptions, grant: number, done: (o: MeteredOutcome) => void, sink: EchoSink) => {
    const held: Array<() => void> = [];
    let second = 0;
    return pinger.startMetered(options, grant, done, {
      echo(seq, status, rttMs, reply) {
        raw.push(rttMs >= 0 ? { seq, status, rttMs } : { seq, status });
        if (seq < ROUND) return void held.push(() => sink.echo(seq, status, rttMs, reply));
        sink.echo(seq, status, rttMs, reply);
        if (seq < 2 * ROUND && ++second === ROUND) {
          between();
          for (const release of held) release();
        }
      },
    });
  };
  return { socketKinds: pinger.socketKinds, startMetered } as unknown as Pinger;
}

test('echoes decided out of order are held only until the earlier ones are in, and the figures are those of one summary over every echo', async ({ pinger }) => {
  const raw: RawEcho[] = [];
  const held: number[] = [];
  let whileFirstOut = -1;
  const reordered = firstRoundLast(pinger, raw, () => (whileFirstOut = rounds.heldEchoes));
  let rounds!: Rounds<null>;
  const outcome = await new Promise<RoundsOutcome<null>>((resolve) => {
    rounds = new Rounds(reordered, { address, count: 30, intervalMs: 2, timeoutMs: 1000, size: 0 }, ROUND, FREE, (o) => resolve(o), () => held.push(rounds.heldEchoes));
    rounds.begin();
  });
  assert.ok(outcome.ok && 'totals' in outcome, JSON.stringify(outcome));
  if (!outcome.ok || !('totals' in outcome)) return;
  // The second round, decided first, was held whole (ten echoes) while the first was not in; never more.
  assert.is(whileFirstOut, ROUND);
  assert.ok(held.every((n) => n <= ROUND), JSON.stringify(held));
  assert.is(rounds.heldEchoes, 0);
  const whole = summarize({ replies: raw, duplicates: 0, durationMs: 0 });
  assert.equal(outcome.totals.packets, whole.packets);
  assert.equal(outcome.totals.rtt, whole.rtt);
});

test.run();
