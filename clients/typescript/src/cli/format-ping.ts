import type { PingResult } from '../types.js';

const ms = (n: number) => n.toFixed(3);
const percent = (n: number) => `${Number(n.toFixed(1))}%`;

function replyLine(r: PingResult['replies'][number], address: string): string {
  if (r.status === 'reply') return `${r.bytes ?? '?'} bytes from ${address}: icmp_seq=${r.seq} ttl=${r.ttl ?? '?'} time=${ms(r.rttMs ?? 0)} ms`;
  if (r.status === 'timeout') return `no reply for icmp_seq=${r.seq}`;
  return `From ${r.from ?? '?'} icmp_seq=${r.seq} ${r.status === 'unreachable' ? 'Destination Unreachable' : 'Time to live exceeded'}${r.reason ? ` (${r.reason})` : ''}`;
}

// What iputils ping prints, from one measurement.
export function formatPing(result: PingResult, server: string): string[] {
  const { packets, rtt } = result;
  const lines = [`PING ${result.host} (${result.address}) via ${server}`, ...result.replies.map((r) => replyLine(r, result.address)), ''];
  lines.push(`--- ${result.host} ping statistics ---`);
  const dups = packets.duplicates > 0 ? `, +${packets.duplicates} duplicates` : '';
  lines.push(`${packets.sent} packets transmitted, ${packets.received} received${dups}, ${percent(packets.lossPercent)} packet loss, time ${Math.round(result.durationMs)}ms`);
  if (rtt !== null) lines.push(`rtt min/avg/max/mdev = ${ms(rtt.minMs)}/${ms(rtt.avgMs)}/${ms(rtt.maxMs)}/${ms(rtt.stddevMs)} ms`);
  return lines;
}

// Why this measurement fails a CI check, or null when it passes: every echo request answered.
export function pingFailure(result: PingResult): string | null {
  if (!result.reachable) return `${result.host} (${result.address}) is unreachable: no reply to ${result.packets.sent} echo requests`;
  if (result.packets.lossPercent > 0) return `${percent(result.packets.lossPercent)} packet loss to ${result.host} (${result.address})`;
  return null;
}
