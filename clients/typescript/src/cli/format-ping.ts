import type { PingEvent, PingResult } from '../types.js';
import { oneLine } from './terminal.js';

type Reply = PingResult['replies'][number];
type Start = Extract<PingEvent, { event: 'start' }>['data'];

const ms = (n: number) => n.toFixed(3);
const percent = (n: number) => `${Number(n.toFixed(1))}%`;

export function pingHeader(host: string, address: string, server: string): string {
  return `PING ${oneLine(host)} (${oneLine(address)}) via ${server}`;
}

export function replyLine(r: Reply, address: string): string {
  if (r.status === 'reply') return `${r.bytes ?? '?'} bytes from ${oneLine(address)}: icmp_seq=${r.seq} ttl=${r.ttl ?? '?'} time=${ms(r.rttMs ?? 0)} ms`;
  if (r.status === 'timeout') return `no reply for icmp_seq=${r.seq}`;
  return `From ${oneLine(r.from ?? '?')} icmp_seq=${r.seq} ${r.status === 'unreachable' ? 'Destination Unreachable' : 'Time to live exceeded'}${r.reason ? ` (${oneLine(r.reason)})` : ''}`;
}

// What a ping's end states, in a JSON body or a stream's summary (a long ping's lists no replies).
type Figures = Pick<PingResult, 'host' | 'address' | 'reachable' | 'packets' | 'rtt' | 'durationMs'>;

// The statistics ping prints at its end.
export function pingStatistics(result: Figures): string[] {
  const { packets, rtt } = result;
  const dups = packets.duplicates > 0 ? `, +${packets.duplicates} duplicates` : '';
  const lines = [`--- ${oneLine(result.host)} ping statistics ---`, `${packets.sent} packets transmitted, ${packets.received} received${dups}, ${percent(packets.lossPercent)} packet loss, time ${Math.round(result.durationMs)}ms`];
  if (rtt !== null) lines.push(`rtt min/avg/max/mdev = ${ms(rtt.minMs)}/${ms(rtt.avgMs)}/${ms(rtt.maxMs)}/${ms(rtt.stddevMs)} ms`);
  return lines;
}

// What iputils ping prints, from one measurement.
export function formatPing(result: PingResult, server: string): string[] {
  return [pingHeader(result.host, result.address, server), ...result.replies.map((r) => replyLine(r, result.address)), '', ...pingStatistics(result)];
}

// The echoes decided so far, folded as they come (Welford's mean and variance): a --watch of hours keeps
// a few numbers, never every reply.
export class PingTally {
  sent = 0;
  received = 0;
  private min = Infinity;
  private max = -Infinity;
  private mean = 0;
  private squares = 0; // sum of squared differences from the mean

  add(r: Reply): void {
    this.sent++;
    if (r.status !== 'reply') return;
    const rtt = r.rttMs ?? 0;
    this.received++;
    this.min = Math.min(this.min, rtt);
    this.max = Math.max(this.max, rtt);
    const before = this.mean;
    this.mean += (rtt - before) / this.received;
    this.squares += (rtt - before) * (rtt - this.mean);
  }

  rtt(): PingResult['rtt'] {
    if (this.received === 0) return null;
    return { minMs: this.min, avgMs: this.mean, maxMs: this.max, stddevMs: Math.sqrt(this.squares / this.received), jitterMs: 0 };
  }
}

// A measurement cut short (Ctrl-C during --watch), from the echoes decided so far, as ping counts them
// when interrupted: an echo still in flight is neither sent nor lost. Duplicates and jitter are not
// streamed, so they read 0 here, and the replies themselves were not kept.
export function partialPing(start: Start, tally: PingTally, durationMs: number): PingResult {
  const { sent, received } = tally;
  const packets = { sent, received, duplicates: 0, lossPercent: sent === 0 ? 0 : (100 * (sent - received)) / sent };
  const { host, address, ipVersion, resolveMs, startedAt } = start;
  return { host, address, ipVersion, reachable: received > 0, packets, rtt: tally.rtt(), replies: [], resolveMs, durationMs, startedAt };
}

// Why this measurement fails a CI check, or null when it passes: every echo request answered.
export function pingFailure(result: Figures): string | null {
  const target = `${oneLine(result.host)} (${oneLine(result.address)})`;
  if (!result.reachable) return `${target} is unreachable: no reply to ${result.packets.sent} echo requests`;
  if (result.packets.lossPercent > 0) return `${percent(result.packets.lossPercent)} packet loss to ${target}`;
  return null;
}
