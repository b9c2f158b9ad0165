// A tcping's attempts, one connection at a time: attempt k starts at k x intervalMs from the first, or
// when attempt k - 1 ends if that is later (a check never holds two connections). Every `roundSize`
// attempts after the first round are paid for as they start (a long streamed check pays as it goes).
import { performance } from 'node:perf_hooks';
import type { Address } from '../../net/address';
import type { ConnectAttempt, TcpConnector } from '../../engines/tcp/connector';
import type { Answer } from '../../util/answer';
import type { ToolFailure } from '../outcome';
import { AttemptTally, toAttempt } from './tally';
import type { TcpAttempt } from './types';

export interface SeriesOptions {
  address: Address;
  port: number;
  count: number;
  intervalMs: number;
  timeoutMs: number;
}

// `results`: every attempt, for a series of at most one round; null for a longer one (each was reported
// through onAttempt). `stopped`: a later round's payment was refused. `fault`: a throw in what the series
// called back, or a payment that answered an Error (a bug): it ended there.
export type SeriesOutcome =
  | { ok: true; tally: AttemptTally; results: TcpAttempt[] | null }
  | { ok: false; stopped: ToolFailure }
  | { ok: false; fault: Error };

export type RoundPayment = (round: number, count: number, done: Answer<ToolFailure | null>) => void;

// Starts the series; returns its stop function (after it nothing is called back, and the attempt in
// flight is closed at once).
export function connectSeries(connector: TcpConnector, options: SeriesOptions, roundSize: number, pay: RoundPayment, end: (outcome: SeriesOutcome) => void, onAttempt?: (attempt: TcpAttempt) => void): () => void {
  const series = new Series(connector, options, roundSize, pay, end, onAttempt);
  series.next();
  return () => series.stop();
}

class Series {
  private readonly t0 = performance.now();
  private readonly tally = new AttemptTally();
  private readonly results: TcpAttempt[] | null;
  private seq = 0;
  private over = false;
  private timer: NodeJS.Timeout | null = null;
  private cancelAttempt: (() => void) | null = null;

  constructor(
    private readonly connector: TcpConnector,
    private readonly options: SeriesOptions,
    private readonly roundSize: number,
    private readonly pay: RoundPayment,
    private readonly done: (outcome: SeriesOutcome) => void,
    private readonly onAttempt?: (attempt: TcpAttempt) => void,
  ) {
    this.results = options.count <= roundSize ? [] : null;
  }

  next(): void {
    const { seq, roundSize } = this;
    if (seq === 0 || seq % roundSize !== 0) return this.attempt();
    const count = Math.min(roundSize, this.options.count - seq);
    this.pay(seq / roundSize, count, (verdict) =>
      this.guard(() => (verdict instanceof Error ? this.end({ ok: false, fault: verdict }) : verdict !== null ? this.end({ ok: false, stopped: verdict }) : this.attempt())),
    );
  }

  stop(): void {
    this.over = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.cancelAttempt?.();
    this.cancelAttempt = null;
  }

  private attempt(): void {
    if (this.over) return;
    const { address, port, timeoutMs } = this.options;
    this.cancelAttempt = this.connector.connect(address, port, timeoutMs, (a) => this.guard(() => this.attempted(a)));
  }

  private attempted(a: ConnectAttempt): void {
    this.cancelAttempt = null;
    const item = toAttempt(this.seq, a);
    this.tally.add(item.status, a.elapsedMs);
    this.results?.push(item);
    this.seq++;
    this.onAttempt?.(item);
    if (this.over) return;
    if (this.seq === this.options.count) return this.end({ ok: true, tally: this.tally, results: this.results });
    const wait = Math.max(0, this.t0 + this.seq * this.options.intervalMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.guard(() => this.next());
    }, wait);
  }

  // What the series runs from a timer or a call back runs here: a throw is a bug, and ends the series as
  // its fault (the request's guard then makes it a logged 500).
  private guard(step: () => void): void {
    if (this.over) return;
    try {
      step();
    } catch (err) {
      this.end({ ok: false, fault: err instanceof Error ? err : new Error(String(err)) });
    }
  }

  private end(outcome: SeriesOutcome): void {
    if (this.over) return;
    this.stop();
    this.done(outcome);
  }
}
