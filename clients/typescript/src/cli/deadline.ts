import type { Command } from './args.js';

type Measure = Extract<Command, { command: 'ping' | 'dns' | 'trace' | 'mtr' | 'tcp' | 'tls' | 'http' }>;

// Beyond the longest the measurement itself can take: host resolution, the server's queue, the network.
const SLACK_MS = 15_000;

// The longest the request can take on the server, from what it asks and the server's defaults for the
// rest (the streamed ping's interval is counted at its JSON bound, 1000 ms, when not given).
export function defaultDeadlineMs(cmd: Measure | { command: 'dns'; timeoutMs?: undefined }): number {
  if (cmd.command === 'ping') return (cmd.count ?? 4) * (cmd.intervalMs ?? 1000) + (cmd.timeoutMs ?? 1000) + SLACK_MS;
  if (cmd.command === 'dns') return (cmd.timeoutMs ?? 2000) + SLACK_MS;
  // Resolving, then the connection and the handshake, each within the timeout.
  if (cmd.command === 'tls') return 2 * (cmd.timeoutMs ?? 5000) + SLACK_MS;
  // The whole check, redirects included, is within its timeout; each redirect's host may resolve.
  if (cmd.command === 'http') return (cmd.timeoutMs ?? 10_000) + (cmd.followRedirects ?? 0) * 2000 + SLACK_MS;
  // One connection at a time: an attempt that outlasts the interval delays the next.
  if (cmd.command === 'tcp') return (cmd.count ?? 4) * Math.max(cmd.intervalMs ?? 1000, cmd.timeoutMs ?? 2000) + SLACK_MS;
  const probe = cmd.timeoutMs ?? 1000;
  // A cycle lasts at most one timeout, and the next starts an interval after it started, or when it ends.
  if (cmd.command === 'mtr') return (cmd.cycles ?? 10) * Math.max(cmd.intervalMs ?? 1000, probe) + (cmd.resolveNames || cmd.asn ? probe : 0) + SLACK_MS;
  return (cmd.maxHops ?? 30) * (cmd.probesPerHop ?? 2) * probe + (cmd.resolveNames || cmd.asn ? probe : 0) + SLACK_MS;
}

// The whole answer within `ms`, or the signal aborts. A server that drips its answer a byte at a time
// never trips a read timeout; this does.
export class Deadline {
  private readonly controller = new AbortController();
  readonly signal = this.controller.signal;
  private end: number;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly ms: number) {
    this.end = Date.now() + ms;
    this.arm();
  }

  get expired(): boolean {
    return this.signal.aborted;
  }

  // A wait Retry-After asked for is not the server's time: the deadline moves out by it.
  postpone(ms: number): void {
    this.end += ms;
    this.arm();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private arm(): void {
    clearTimeout(this.timer);
    if (!this.expired) this.timer = setTimeout(() => this.controller.abort(), Math.max(0, this.end - Date.now()));
  }
}
