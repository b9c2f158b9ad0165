import { performance } from 'node:perf_hooks';
import type { Answer } from '../../util/answer';
import { EchoTally, roundMicros } from './stats';
import type { EchoMark, EchoOptions, EchoReply, EchoResult, EchoTotals, Pinger, RoundOutcome } from './types';
import type { IcmpError } from './errors';

// Before each round but the first: may it start? null lets it; anything else ends the ping with that value
// (the caller's own reason, e.g. a spent budget) once the rounds already paid for are done: no later round
// starts. It answers through `done`, now or later (util/answer.ts).
export type RoundGate<Stop> = (round: number, count: number, done: Answer<Stop | null>) => void;

// `echo`: a ping of one round, every echo in it; `totals`: a ping of several rounds, its statistics only.
// `fault`: the gate answered an Error, or something the ping scheduled itself threw (a bug): it ended there.
export type RoundsOutcome<Stop> =
  | { ok: true; echo: EchoResult }
  | { ok: true; totals: EchoTotals }
  | { ok: false; error: IcmpError }
  | { ok: false; stopped: Stop }
  | { ok: false; fault: Error };

// One long ping as consecutive engine pings of at most `size` echoes each (rounds), so that it can be paid
// for as it goes and holds only one round's sequences at a time. Round k starts at k * size * intervalMs
// from the first send, whatever the earlier rounds still wait for; the echoes keep their places (seq
// counts on across rounds). Each round's echoes are folded into the statistics, unrounded and in seq order,
// as the round ends, and then let go: the result is the statistics one ping of `count` echoes would
// report, without the echoes (each was reported through `onEcho` as it was decided), and what a ping keeps
// does not grow with its length. A ping of at most `size` echoes is one engine ping, with every echo.
// Returns the stop function, as Pinger.start does: after it, nothing is called back.
export function pingInRounds<Stop>(
  pinger: Pinger,
  options: EchoOptions,
  size: number,
  gate: RoundGate<Stop>,
  done: (outcome: RoundsOutcome<Stop>) => void,
  onEcho?: (echo: EchoReply) => void,
): () => void {
  // One round is one engine ping: no rounds to keep, nothing to merge (every JSON ping, on the hot path).
  if (options.count <= size) return pinger.start(options, done, onEcho);
  const run = new Rounds(pinger, options, size, gate, done, onEcho);
  run.begin(0);
  return () => run.stop();
}

export class Rounds<Stop> {
  private readonly t0 = performance.now();
  private readonly total: number;
  private readonly tally = new EchoTally();
  // Rounds that ended while an earlier one still ran (its last echo waits out its timeout): held until
  // every earlier round is folded, since jitter is taken between consecutive echoes. At most the rounds
  // one timeout overlaps.
  private readonly early = new Map<number, EchoMark[]>();
  private folded = 0; // rounds folded into the tally, in order
  // The stop function of each round running: rarely more than one. An array, since a Map emptied by its
  // delete shrinks into a new table, once a round.
  private readonly running: { k: number; stop: () => void }[] = [];
  private duplicates = 0;
  private durationMs = 0;
  private finishedRounds = 0;
  private timer: NodeJS.Timeout | null = null;
  private over = false;
  private refused: { stopped: Stop } | null = null; // by the gate: the rounds running finish, no other starts

  constructor(
    private readonly pinger: Pinger,
    private readonly options: EchoOptions,
    private readonly size: number,
    private readonly gate: RoundGate<Stop>,
    private readonly done: (outcome: RoundsOutcome<Stop>) => void,
    private readonly onEcho: ((echo: EchoReply) => void) | undefined,
  ) {
    this.total = Math.ceil(options.count / size);
  }

  // Round k: asked of the gate (not the first), then started; the next one is timed from the first send.
  begin(k: number): void {
    const count = Math.min(this.size, this.options.count - k * this.size);
    if (k === 0) return this.launch(0, count);
    this.gate(k, count, (verdict) => this.guard(() => (verdict instanceof Error ? this.end({ ok: false, fault: verdict }) : this.decided(k, count, verdict))));
  }

  // Runs what this ping scheduled itself (a round's timer, the gate's answer, the engine's call back):
  // a throw there is a bug, and the ping ends with it as its fault (the caller's guard makes it the
  // request's 500) instead of escaping to the timer or the store that called.
  private guard(step: () => void): void {
    try {
      step();
    } catch (err) {
      this.end({ ok: false, fault: err instanceof Error ? err : new Error(String(err)) });
    }
  }

  private decided(k: number, count: number, verdict: Stop | null): void {
    if (this.over) return;
    if (verdict === null) return this.launch(k, count);
    this.refused = { stopped: verdict };
    if (this.running.length === 0) this.end({ ok: false, ...this.refused });
  }

  private launch(k: number, count: number): void {
    const offset = k * this.size;
    const startedAt = performance.now() - this.t0;
    const stop = this.pinger.startRound({ ...this.options, count }, offset, (outcome) => this.guard(() => this.roundEnded(k, startedAt, outcome)), this.onEcho);
    if (this.over) return stop(); // the start failed at once, or an echo report stopped it
    this.running.push({ k, stop });
    if (k + 1 < this.total) {
      const due = (k + 1) * this.size * this.options.intervalMs - (performance.now() - this.t0);
      this.timer = setTimeout(() => {
        this.timer = null;
        this.guard(() => this.begin(k + 1));
      }, Math.max(0, due));
    }
  }

  private roundEnded(k: number, startedAt: number, outcome: RoundOutcome): void {
    const at = this.running.findIndex((r) => r.k === k);
    if (at >= 0) this.running.splice(at, 1); // not there when the round failed inside its own start
    if (!outcome.ok) return this.end(outcome);
    const { round } = outcome;
    this.fold(k, round.marks);
    this.duplicates += round.duplicates;
    this.durationMs = Math.max(this.durationMs, startedAt + round.durationMs);
    this.finishedRounds++;
    if (this.refused !== null && this.running.length === 0) return this.end({ ok: false, ...this.refused });
    if (this.finishedRounds === this.total) this.end({ ok: true, totals: this.totals() });
  }

  // Round k's echoes (in seq order) into the tally once every earlier round is in. The round next in line,
  // nearly always the one that ended, is folded without being held.
  private fold(k: number, marks: EchoMark[]): void {
    if (k !== this.folded) {
      this.early.set(k, marks);
      return;
    }
    this.tallyRound(marks);
    if (this.early.size === 0) return;
    for (let next = this.early.get(this.folded); next !== undefined; next = this.early.get(this.folded)) {
      this.early.delete(this.folded);
      this.tallyRound(next);
    }
  }

  private tallyRound(marks: EchoMark[]): void {
    for (const mark of marks) this.tally.add(mark.status, mark.rttMs);
    this.folded++;
  }

  private totals(): EchoTotals {
    const { tally } = this;
    return { packets: tally.packets(this.duplicates), rtt: tally.rtt(), statuses: { ...tally.statuses }, durationMs: roundMicros(this.durationMs) };
  }

  // Echoes this ping holds besides its statistics: those of rounds that ended before an earlier one.
  get heldEchoes(): number {
    let n = 0;
    for (const echoes of this.early.values()) n += echoes.length;
    return n;
  }

  private end(outcome: RoundsOutcome<Stop>): void {
    if (this.over) return;
    this.stop();
    this.done(outcome);
  }

  stop(): void {
    if (this.over) return;
    this.over = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    for (const { stop } of this.running) stop();
    this.running.length = 0;
  }
}
