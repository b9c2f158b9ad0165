import type { PingEvent, PingResult } from '../types.js';

type Reply = PingResult['replies'][number];
type Start = Extract<PingEvent, { event: 'start' }>['data'];

const ms = (n: number) => n.toFixed(3);
const percent = (n: number) => `${Number(n.toFixed(1))}%`;

export function pingHeader(host: string, address: string, server: string): string {
  return `PING ${host} (${address}) via ${server}`;
}

export function replyLine(r: Reply, address: string): string {
  if (r.status === 'reply') return `${r.bytes ?? '?'} bytes from ${address}: icmp_seq=${r.seq} ttl=${r.ttl ?? '?'} time=${ms(r.rttMs ?? 0)} ms`;
  if (r.status === 'timeout') return `no reply for icmp_seq=${r.seq}`;
  return `From ${r.from ?? '?'} icmp_seq=${r.seq} ${r.status === 'unreachable' ? 'Destination Unreachable' : 'Time to live exceeded'}${r.reason ? ` (${r.reason})` : ''}`;
}

// What a ping's end states, in a JSON body or a stream's summary (a long ping's lists no replies).
type Figures = Pick<PingResult, 'host' | 'address' | 'reachable' | 'packets' | 'rtt' | 'durationMs'>;

// The statistics ping prints at its end.
export function pingStatistics(result: Figures): string[] {
  const { packets, rtt } = result;
  const dups = packets.duplicates > 0 ? `, +${packets.duplicates} duplicates` : '';
  const lines = [`--- ${result.host} ping statistics ---`, `${packets.sent} packets transmitted, ${packets.received} received${dups}, ${percent(packets.lossPercent)} packet loss, time ${Math.round(result.durationMs)}ms`];
  if (rtt !== null) lines.push(`rtt min/avg/max/mdev = ${ms(rtt.minMs)}/${ms(rtt.avgMs)}/${ms(rtt.maxMs)}/${ms(rtt.stddevMs)} ms`);
  return lines;
}

// What iputils ping prints, from one measurement.
export function formatPing(result: PingResult, server: string): string[] {
  return [pingHeader(result.host, result.address, server), ...result.replies.map((r) => replyLine(r, result.address)), '', ...pingStatistics(result)];
}

// A measurement cut short (Ctrl-C during --watch), from the echoes decided so far, as ping counts them
// when interrupted: an echo still in flight is neither sent nor lost. Duplicates and jitter are not
// streamed, so they read 0 here.
export function partialPing(start: Start, replies: readonly Reply[], durationMs: number): PingResult {
  const rtts = replies.filter((r) => r.status === 'reply').map((r) => r.rttMs ?? 0);
  const sent = replies.length;
  const avg = rtts.reduce((a, b) => a + b, 0) / (rtts.length || 1);
  const rtt = rtts.length === 0 ? null : { minMs: Math.min(...rtts), avgMs: avg, maxMs: Math.max(...rtts), stddevMs: Math.sqrt(rtts.reduce((a, r) => a + (r - avg) ** 2, 0) / rtts.length), jitterMs: 0 };
  const packets = { sent, received: rtts.length, duplicates: 0, lossPercent: sent === 0 ? 0 : (100 * (sent - rtts.length)) / sent };
  const { host, address, ipVersion, resolveMs, startedAt } = start;
  return { host, address, ipVersion, reachable: rtts.length > 0, packets, rtt, replies: [...replies], resolveMs, durationMs, startedAt };
}

// Why this measurement fails a CI check, or null when it passes: every echo request answered.
export function pingFailure(result: Figures): string | null {
  if (!result.reachable) return `${result.host} (${result.address}) is unreachable: no reply to ${result.packets.sent} echo requests`;
  if (result.packets.lossPercent > 0) return `${percent(result.packets.lossPercent)} packet loss to ${result.host} (${result.address})`;
  return null;
}
