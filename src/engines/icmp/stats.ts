import type { EchoReply, EchoResult, EchoStatus, PacketStats, RawEcho, RawResult, RttStats } from './types';

// Milliseconds with microsecond precision, as the API promises.
export function roundMicros(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

// iputils' figures, folded one echo at a time in seq order, as iputils folds replies as they come:
// loss over transmitted; running sums for the mean and mdev (the population standard deviation), the
// smallest and largest RTT, and the sum of differences between consecutive RTTs for jitter. A long ping
// (rounds.ts) keeps one of these instead of every echo; a short one folds its echoes the same way, so
// both report the same figures for the same echoes.
export class EchoTally {
  sent = 0;
  received = 0;
  readonly statuses: Record<EchoStatus, number> = { reply: 0, timeout: 0, unreachable: 0, 'time-exceeded': 0 };
  private rtts = 0;
  private sum = 0;
  private sumSq = 0;
  private min = Infinity;
  private max = -Infinity;
  private jitter = 0;
  private last = 0;

  add(status: EchoStatus, rttMs: number | undefined): void {
    this.sent++;
    this.statuses[status]++;
    if (status !== 'reply') return;
    this.received++;
    if (rttMs !== undefined) this.addRtt(rttMs);
  }

  addRtt(x: number): void {
    this.sum += x;
    this.sumSq += x * x;
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
    if (this.rtts > 0) this.jitter += Math.abs(x - this.last);
    this.last = x;
    this.rtts++;
  }

  packets(duplicates: number): PacketStats {
    const { sent, received } = this;
    const lossPercent = sent === 0 ? 0 : roundMicros(((sent - received) / sent) * 100);
    return { sent, received, duplicates, lossPercent };
  }

  rtt(): RttStats | null {
    const n = this.rtts;
    if (n === 0) return null;
    const mean = this.sum / n;
    const variance = Math.max(0, this.sumSq / n - mean * mean);
    return {
      minMs: roundMicros(this.min),
      avgMs: roundMicros(mean),
      maxMs: roundMicros(this.max),
      stddevMs: roundMicros(Math.sqrt(variance)),
      jitterMs: roundMicros(n > 1 ? this.jitter / (n - 1) : 0),
    };
  }
}

export function packetStats(replies: readonly EchoReply[], duplicates: number): PacketStats {
  const tally = new EchoTally();
  for (const r of replies) tally.add(r.status, undefined);
  return tally.packets(duplicates);
}

export function rttStats(rtts: readonly number[]): RttStats | null {
  const tally = new EchoTally();
  for (const x of rtts) tally.addRtt(x);
  return tally.rtt();
}

// One echo as the API shows it, in a result's `replies` and as it is decided alike: RTT rounded to
// microseconds, what does not apply to its status left out.
export function toReply(r: RawEcho): EchoReply {
  const out: EchoReply = { seq: r.seq, status: r.status };
  if (r.status === 'reply') {
    if (r.rttMs !== undefined) out.rttMs = roundMicros(r.rttMs);
    if (r.ttl !== undefined) out.ttl = r.ttl;
    if (r.bytes !== undefined) out.bytes = r.bytes;
  } else {
    if (r.from !== undefined) out.from = r.from.text;
    if (r.reason !== undefined) out.reason = r.reason;
  }
  return out;
}

// Builds the API's result: statistics from unrounded RTTs, then every number rounded to microseconds.
export function summarize(raw: RawResult): EchoResult {
  const ordered = [...raw.replies].sort((a, b) => a.seq - b.seq);
  const tally = new EchoTally();
  for (const r of ordered) tally.add(r.status, r.rttMs);
  return {
    packets: tally.packets(raw.duplicates),
    rtt: tally.rtt(),
    replies: ordered.map(toReply),
    durationMs: roundMicros(raw.durationMs),
  };
}
