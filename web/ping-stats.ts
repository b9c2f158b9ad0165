// Running figures over the echoes seen so far, as the summary will state them at the end: loss counts
// every decided echo without a reply.

import type { PingResult } from './client/index.js';

// One echo as its reply event (and the summary's `replies`) holds it.
export type Echo = PingResult['replies'][number];

export interface PingFigures {
  sent: number;
  received: number;
  minMs: number | null;
  avgMs: number | null;
  maxMs: number | null;
  lossPercent: number | null;
}

export class PingStats {
  private sent = 0;
  private received = 0;
  private sum = 0;
  private min = Infinity;
  private max = -Infinity;

  add(echo: Echo): void {
    this.sent += 1;
    if (echo.status !== 'reply' || echo.rttMs === undefined) return;
    this.received += 1;
    this.sum += echo.rttMs;
    this.min = Math.min(this.min, echo.rttMs);
    this.max = Math.max(this.max, echo.rttMs);
  }

  figures(): PingFigures {
    const any = this.received > 0;
    return {
      sent: this.sent,
      received: this.received,
      minMs: any ? this.min : null,
      avgMs: any ? this.sum / this.received : null,
      maxMs: any ? this.max : null,
      lossPercent: this.sent > 0 ? (100 * (this.sent - this.received)) / this.sent : null,
    };
  }
}

export function ms(value: number | null): string {
  if (value === null) return '–';
  return value < 10 ? value.toFixed(3) : value < 100 ? value.toFixed(2) : value.toFixed(1);
}

export function percent(value: number | null): string {
  return value === null ? '–' : `${Number(value.toFixed(1))} %`;
}
