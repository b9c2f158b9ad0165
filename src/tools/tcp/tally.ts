import type { ConnectAttempt } from '../../engines/tcp/connector';
import { roundMicros } from '../../engines/icmp/stats';
import type { AttemptStats, ConnectStats, TcpAttempt } from './types';

// One attempt as the API shows it: its time rounded to microseconds, and only for a connection.
export function toAttempt(seq: number, a: ConnectAttempt): TcpAttempt {
  if (a.outcome === 'connected') return { seq, status: 'connected', connectMs: roundMicros(a.elapsedMs) };
  return { seq, status: a.outcome, ...(a.errno !== undefined && a.outcome !== 'timeout' ? { errno: a.errno } : {}) };
}

// The figures over every attempt, folded one at a time (a long stream keeps this, not its attempts), as
// ping's EchoTally does: mean and population standard deviation (iputils' mdev) of the connect times.
export class AttemptTally {
  sent = 0;
  connected = 0;
  readonly statuses: Record<TcpAttempt['status'], number> = { connected: 0, refused: 0, timeout: 0, unreachable: 0, error: 0 };
  private sum = 0;
  private sumSq = 0;
  private min = Infinity;
  private max = -Infinity;

  add(status: TcpAttempt['status'], elapsedMs: number): void {
    this.sent++;
    this.statuses[status]++;
    if (status !== 'connected') return;
    this.connected++;
    this.sum += elapsedMs;
    this.sumSq += elapsedMs * elapsedMs;
    if (elapsedMs < this.min) this.min = elapsedMs;
    if (elapsedMs > this.max) this.max = elapsedMs;
  }

  attempts(): AttemptStats {
    const { sent, connected } = this;
    return { sent, connected, lossPercent: sent === 0 ? 0 : roundMicros(((sent - connected) / sent) * 100) };
  }

  connectMs(): ConnectStats | null {
    const n = this.connected;
    if (n === 0) return null;
    const mean = this.sum / n;
    const variance = Math.max(0, this.sumSq / n - mean * mean);
    return { min: roundMicros(this.min), avg: roundMicros(mean), max: roundMicros(this.max), stddev: roundMicros(Math.sqrt(variance)) };
  }
}
