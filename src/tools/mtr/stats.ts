// One hop's figures as mtr computes them (traviscross/mtr, ui/net.c), folded one probe at a time in the
// order the cycles sent them, so a long mtr keeps a few numbers per hop instead of every round trip:
// - loss over the probes sent (each cycle's probes are all decided before it is folded);
// - last, best, worst, and the running mean and sum of squared differences (Welford, as mtr keeps them);
//   stddev is the sample standard deviation, sqrt(ssd / (n - 1)), 0 with fewer than two replies;
// - jitter is the absolute difference between a reply's round trip and the previous reply's (lost
//   probes skipped); jitterMs is its running mean over the replies, the first reply counting 0 (mtr's
//   Javg), jitterMaxMs its largest value (mtr's Jmax).
// Nothing is rounded here: figures() rounds to microseconds once, as the API shows them.
import { roundMicros } from '../../engines/icmp/stats';

export interface HopFigures {
  sent: number;
  received: number;
  lossPercent: number;
  // null while nothing came back from this hop.
  lastMs: number | null;
  bestMs: number | null;
  avgMs: number | null;
  worstMs: number | null;
  stddevMs: number | null;
  jitterMs: number | null;
  jitterMaxMs: number | null;
}

export class HopTally {
  private sent = 0;
  private received = 0;
  private last = 0;
  private best = Infinity;
  private worst = -Infinity;
  private mean = 0;
  private ssd = 0;
  private jitterMean = 0;
  private jitterMax = 0;

  // A probe of this hop that got no answer.
  lost(): void {
    this.sent++;
  }

  // A probe of this hop answered after `rttMs`.
  answered(rttMs: number): void {
    this.sent++;
    const jitter = this.received === 0 ? 0 : Math.abs(rttMs - this.last);
    this.received++;
    this.last = rttMs;
    if (rttMs < this.best) this.best = rttMs;
    if (rttMs > this.worst) this.worst = rttMs;
    const before = this.mean;
    this.mean += (rttMs - before) / this.received;
    this.ssd += (rttMs - before) * (rttMs - this.mean);
    this.jitterMean += (jitter - this.jitterMean) / this.received;
    if (jitter > this.jitterMax) this.jitterMax = jitter;
  }

  figures(): HopFigures {
    const { sent, received } = this;
    const lossPercent = sent === 0 ? 0 : roundMicros(((sent - received) / sent) * 100);
    if (received === 0) return { sent, received, lossPercent, lastMs: null, bestMs: null, avgMs: null, worstMs: null, stddevMs: null, jitterMs: null, jitterMaxMs: null };
    const stddev = received > 1 ? Math.sqrt(Math.max(0, this.ssd) / (received - 1)) : 0;
    return {
      sent,
      received,
      lossPercent,
      lastMs: roundMicros(this.last),
      bestMs: roundMicros(this.best),
      avgMs: roundMicros(this.mean),
      worstMs: roundMicros(this.worst),
      stddevMs: roundMicros(stddev),
      jitterMs: roundMicros(this.jitterMean),
      jitterMaxMs: roundMicros(this.jitterMax),
    };
  }
}
