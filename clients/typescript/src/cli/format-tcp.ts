import type { TcpAttempt, TcpEvent, TcpResult } from '../types.js';
import { oneLine } from './terminal.js';

type Start = Extract<TcpEvent, { event: 'start' }>['data'];

const ms = (n: number) => n.toFixed(3);
const percent = (n: number) => `${Number(n.toFixed(1))}%`;
const endpoint = (address: string, port: number) => (address.includes(':') ? `[${oneLine(address)}]:${port}` : `${oneLine(address)}:${port}`);

export function tcpHeader(host: string, address: string, port: number, server: string): string {
  return `TCP ${oneLine(host)} (${endpoint(address, port)}) via ${server}`;
}

export function attemptLine(a: TcpAttempt, address: string, port: number): string {
  const to = endpoint(address, port);
  if (a.status === 'connected') return `connected to ${to}: seq=${a.seq} time=${ms(a.connectMs ?? 0)} ms`;
  if (a.status === 'timeout') return `no answer from ${to}: seq=${a.seq} (timeout)`;
  return `${a.status === 'refused' ? 'refused by' : a.status === 'unreachable' ? 'unreachable:' : 'error connecting to'} ${to}: seq=${a.seq}${a.errno ? ` (${oneLine(a.errno)})` : ''}`;
}

// What a check's end states, in a JSON body or a stream's summary (a long check's lists no results).
type Figures = Pick<TcpResult, 'host' | 'address' | 'port' | 'connected' | 'attempts' | 'connectMs' | 'durationMs'>;

export function tcpStatistics(result: Figures): string[] {
  const { attempts, connectMs } = result;
  const lines = [`--- ${oneLine(result.host)} port ${result.port} tcp statistics ---`, `${attempts.sent} attempts, ${attempts.connected} connected, ${percent(attempts.lossPercent)} failed, time ${Math.round(result.durationMs)}ms`];
  if (connectMs !== null) lines.push(`connect min/avg/max/stddev = ${ms(connectMs.min)}/${ms(connectMs.avg)}/${ms(connectMs.max)}/${ms(connectMs.stddev)} ms`);
  return lines;
}

export function formatTcp(result: TcpResult, server: string): string[] {
  return [tcpHeader(result.host, result.address, result.port, server), ...result.results.map((a) => attemptLine(a, result.address, result.port)), '', ...tcpStatistics(result)];
}

// The attempts decided so far, folded as they come (Welford's mean and variance), for --watch.
export class TcpTally {
  sent = 0;
  connected = 0;
  private min = Infinity;
  private max = -Infinity;
  private mean = 0;
  private squares = 0;

  add(a: TcpAttempt): void {
    this.sent++;
    if (a.status !== 'connected') return;
    const t = a.connectMs ?? 0;
    this.connected++;
    this.min = Math.min(this.min, t);
    this.max = Math.max(this.max, t);
    const before = this.mean;
    this.mean += (t - before) / this.connected;
    this.squares += (t - before) * (t - this.mean);
  }

  figures(start: Start, durationMs: number): Figures {
    const { sent, connected } = this;
    const attempts = { sent, connected, lossPercent: sent === 0 ? 0 : (100 * (sent - connected)) / sent };
    const connectMs = connected === 0 ? null : { min: this.min, avg: this.mean, max: this.max, stddev: Math.sqrt(this.squares / connected) };
    return { host: start.host, address: start.address, port: start.port, connected: connected > 0, attempts, connectMs, durationMs };
  }
}

// Why this check fails a CI check, or null when it passes: every attempt connected.
export function tcpFailure(result: Figures): string | null {
  const target = `${oneLine(result.host)} (${endpoint(result.address, result.port)})`;
  if (!result.connected) return `${target}: no connection in ${result.attempts.sent} attempts`;
  if (result.attempts.lossPercent > 0) return `${percent(result.attempts.lossPercent)} of connections to ${target} failed`;
  return null;
}
