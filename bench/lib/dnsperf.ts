import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { ENGINE_QUESTION_TYPES } from '../engines/questions';
import path from 'node:path';
import { track } from './children';
import type { DnsEngineRow } from './types';

export interface DnsperfSummary {
  sent: number;
  completed: number;
  lost: number;
  runTimeS: number;
  queriesPerSecond: number;
}

const FIELDS = {
  sent: /^\s*Queries sent:\s+(\d+)/m,
  completed: /^\s*Queries completed:\s+(\d+)/m,
  lost: /^\s*Queries lost:\s+(\d+)/m,
  runTimeS: /^\s*Run time \(s\):\s+([\d.]+)/m,
  queriesPerSecond: /^\s*Queries per second:\s+([\d.]+)/m,
} as const;

export function parseDnsperf(text: string): DnsperfSummary | null {
  const out: Partial<DnsperfSummary> = {};
  for (const [key, re] of Object.entries(FIELDS) as Array<[keyof DnsperfSummary, RegExp]>) {
    const m = re.exec(text);
    if (!m) return null;
    out[key] = Number(m[1]);
  }
  return out as DnsperfSummary;
}

// dnsperf against one loopback server: the ceiling for DNS queries/s on this machine.
export function runDnsperf(opts: { address: string; port: number; name: string; durationS: number; inFlight: number; workDir: string }): Promise<DnsEngineRow['result']> {
  const queries = path.join(opts.workDir, 'dnsperf-queries.txt');
  writeFileSync(queries, ENGINE_QUESTION_TYPES.map((type) => `${opts.name} ${type}\n`).join(''));
  const args = ['-s', opts.address, '-p', String(opts.port), '-d', queries, '-l', String(opts.durationS), '-q', String(opts.inFlight)];
  return new Promise((resolve) => {
    const child = execFile('dnsperf', args, { timeout: (opts.durationS + 15) * 1000 }, (err, stdout) => {
      const parsed = parseDnsperf(String(stdout));
      if (parsed === null) return resolve({ ok: false, unavailable: `unavailable: dnsperf failed (${err?.message ?? 'no statistics'})` });
      resolve({ ok: true, queriesPerSecond: parsed.queriesPerSecond, completed: parsed.completed, failed: parsed.lost, inFlight: opts.inFlight, durationS: parsed.runTimeS });
    });
    track(child, 'dnsperf');
  });
}
