import type { EchoReply, EchoResult, PacketStats, RawEcho, RawResult, RttStats } from './types';

// Milliseconds with microsecond precision, as the API promises.
export function roundMicros(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

// iputils' arithmetic: loss over transmitted, mdev as the population standard deviation.
export function packetStats(replies: readonly EchoReply[], duplicates: number): PacketStats {
  const sent = replies.length;
  const received = replies.filter((r) => r.status === 'reply').length;
  const lossPercent = sent === 0 ? 0 : roundMicros(((sent - received) / sent) * 100);
  return { sent, received, duplicates, lossPercent };
}

export function rttStats(rtts: readonly number[]): RttStats | null {
  if (rtts.length === 0) return null;
  let sum = 0;
  let sumSq = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const x of rtts) {
    sum += x;
    sumSq += x * x;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const mean = sum / rtts.length;
  const variance = Math.max(0, sumSq / rtts.length - mean * mean);
  let jitter = 0;
  for (let i = 1; i < rtts.length; i++) jitter += Math.abs(rtts[i]! - rtts[i - 1]!);
  if (rtts.length > 1) jitter /= rtts.length - 1;
  return {
    minMs: roundMicros(min),
    avgMs: roundMicros(mean),
    maxMs: roundMicros(max),
    stddevMs: roundMicros(Math.sqrt(variance)),
    jitterMs: roundMicros(jitter),
  };
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
    if (r.from !== undefined) out.from = r.from;
    if (r.reason !== undefined) out.reason = r.reason;
  }
  return out;
}

// Builds the API's result: statistics from unrounded RTTs, then every number rounded to microseconds.
export function summarize(raw: RawResult): EchoResult {
  const ordered = [...raw.replies].sort((a, b) => a.seq - b.seq);
  const rtts = ordered.filter((r) => r.status === 'reply' && r.rttMs !== undefined).map((r) => r.rttMs!);
  const replies: EchoReply[] = ordered.map(toReply);
  return {
    packets: packetStats(replies, raw.duplicates),
    rtt: rttStats(rtts),
    replies,
    durationMs: roundMicros(raw.durationMs),
  };
}
