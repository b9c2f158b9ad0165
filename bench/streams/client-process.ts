import { spawn } from 'node:child_process';
import path from 'node:path';
import { track } from '../lib/children';

// The stream client (client.ts) as a child process: its marks as they come, its report at the end.

const CLIENT = path.join(__dirname, 'client.js');

export interface ClientReport {
  streams: number;
  whole: number;
  events: number;
  replies: number;
  missingReplies: number;
  outOfOrder: number;
  late: number;
  worstLateMs: number;
  problems: Record<string, number>;
  statuses: Record<string, number>;
}

export type ClientMark = { mark: 'start' } | { mark: 'end'; events: number };

export interface ClientRun {
  streams: number;
  count: number;
  intervalMs: number;
  hosts: string[];
  steady: boolean;
  windowFromIntervals?: number; // when the steady window opens (client.ts; 3 unless given)
  timeoutMs?: number; // each ping's (the server's default unless given)
  netns?: string; // a network namespace to run the client in (client-apart.ts)
  onMark?: (mark: ClientMark) => void;
}

export function runClient(url: string, run: ClientRun): Promise<ClientReport> {
  const args = [CLIENT, url, String(run.streams), String(run.count), String(run.intervalMs), run.hosts.join(','), run.steady ? 'steady' : '', String(run.windowFromIntervals ?? 3), run.timeoutMs === undefined ? '' : String(run.timeoutMs)];
  return new Promise((resolve, reject) => {
    const [command, argv] = run.netns === undefined ? [process.execPath, args] : ['ip', ['netns', 'exec', run.netns, process.execPath, ...args]];
    const child = track(spawn(command, argv, { stdio: ['ignore', 'pipe', 'inherit'] }), 'stream-client');
    let buffered = '';
    let report: ClientReport | null = null;
    child.stdout!.on('data', (c: Buffer) => {
      buffered += c.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const value = JSON.parse(buffered.slice(0, nl)) as ClientMark | ClientReport;
        buffered = buffered.slice(nl + 1);
        if ('mark' in value) run.onMark?.(value);
        else report = value;
      }
    });
    child.on('exit', (code) => (code === 0 && report !== null ? resolve(report) : reject(new Error(`the stream client exited with ${code}`))));
  });
}
