import { performance } from 'node:perf_hooks';
import type { Answer } from '../../util/answer';
import { EchoTally, roundMicros } from './stats';
import type { EchoOptions, EchoReply, EchoResult, EchoSink, EchoStatus, EchoTotals, MeteredOutcome, MeteredPing, Pinger } from './types';
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

// One long ping as one engine session paid for in rounds of at most `size` echoes: the session may send
// only the rounds paid for (Pinger.startMetered), and round k is asked of the gate when it is due, at
// k * size * intervalMs from the first send, and granted to the session if the gate lets it; the pace goes
// on from the first send whatever the gate took. Each echo is folded into the statistics as it is decided,
// unrounded and in seq order (one decided before an earlier one waits for it), and then let go: the result
// is the statistics one ping of `count` echoes would report, without the echoes (each was reported through
// `onEcho`), and what a ping keeps does not grow with its length. A ping of at most `size` echoes is one
// plain engine ping, with every echo.
// Returns the stop function, as Pinger.start does: after it, nothing is called back.
export function pingInRounds<Stop>(
  pinger: Pinger,
  options: EchoOptions,
  size: number,
  gate: RoundGate<Stop>,
  done: (outcome: RoundsOutcome<Stop>) => void,
  onEcho?: (echo: EchoReply) => void,
): () => void {
  // One round is one engine ping: nothing to pay later, nothing to fold (every JSON ping, on the hot path).
  if (options.count <= size) return pinger.start(options, done, onEcho);
  const run = new Rounds(pinger, options, size, gate, done, onEcho);
  run.begin();
  return () => run.stop();
}

export class Rounds<Stop> implements EchoSink {
  private readonly t0 = performance.now();
  private readonly total: number;
  private readonly tally = new EchoTally();
  // Echoes decided before an earlier one (which waits out its timeout, say): held until every earlier
  // echo is folded, since jitter is taken between consecutive echoes. At most the echoes one timeout spans.
  // Made when first needed: nearly every echo comes in order, and an empty Map is two more cold objects
  // to look at per echo.
  private early: Map<number, EchoMark> | null = null;
  private folded = 0; // echoes folded into the tally, in seq order
  private granted = 0; // echoes paid for and granted to the session
  private ping: MeteredPing | null = null;
  private timer: NodeJS.Timeout | null = null;
  private over = false;
  private refused: { stopped: Stop } | null = null; // by the gate: the echoes granted finish, no more go out

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

  // The session, with the first round granted (paid at admission); the next round is timed from now.
  begin(): void {
    this.granted = Math.min(this.size, this.options.count);
    const ping = this.pinger.startMetered(this.options, this.granted, (outcome) => this.guard(() => this.ended(outcome)), this);
    if (this.over) return ping.stop(); // the start failed at once, or an echo report stopped it
    this.ping = ping;
    this.due(1);
  }

  // Round k's timer, at its place in the pace.
  private due(k: number): void {
    if (k >= this.total) return;
    const at = k * this.size * this.options.intervalMs - (performance.now() - this.t0);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.guard(() => this.pay(k));
    }, Math.max(0, at));
  }

  private pay(k: number): void {
    const count = Math.min(this.size, this.options.count - k * this.size);
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
    if (verdict !== null) {
      this.refused = { stopped: verdict };
      if (this.folded === this.granted) this.end({ ok: false, ...this.refused });
      return;
    }
    const error = this.ping!.extend(count);
    if (error !== null) return this.end({ ok: false, error });
    this.granted += count;
    this.due(k + 1);
  }

  // Each echo as the session decides it (its EchoSink): on to the caller, and into the statistics.
  echo(seq: number, status: EchoStatus, rttMs: number, reply: EchoReply): void {
    if (this.onEcho !== undefined) this.onEcho(reply);
    if (this.over) return; // the caller stopped the ping
    if (seq !== this.folded) {
      (this.early ??= new Map()).set(seq, rttMs >= 0 ? { status, rttMs } : { status });
      return;
    }
    this.tally.add(status, rttMs >= 0 ? rttMs : undefined);
    this.folded++;
    if (this.early !== null && this.early.size > 0) this.foldEarly(this.early);
    if (this.refused !== null && this.folded === this.granted) this.end({ ok: false, ...this.refused });
  }

  private foldEarly(early: Map<number, EchoMark>): void {
    for (let next = early.get(this.folded); next !== undefined; next = early.get(this.folded)) {
      early.delete(this.folded);
      this.tally.add(next.status, next.rttMs);
      this.folded++;
    }
  }

  private ended(outcome: MeteredOutcome): void {
    if (!outcome.ok) return this.end(outcome);
    this.end({ ok: true, totals: this.totals(outcome.duplicates, outcome.durationMs) });
  }

  private totals(duplicates: number, durationMs: number): EchoTotals {
    const { tally } = this;
    return { packets: tally.packets(duplicates), rtt: tally.rtt(), statuses: { ...tally.statuses }, durationMs: roundMicros(durationMs) };
  }

  // Echoes this ping holds besides its statistics: those decided before an earlier one.
  get heldEchoes(): number {
    return this.early?.size ?? 0;
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
    this.ping?.stop();
  }
}

// One echo held until the earlier ones are folded.
interface EchoMark {
  status: EchoStatus;
  rttMs?: number;
}
