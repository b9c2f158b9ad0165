import { execFile } from 'node:child_process';
import path from 'node:path';
import { track } from '../lib/children';
import type { DnsEngineRow } from '../lib/types';
import type { DnsEngineOptions } from './questions';

export type ChildEngine = 'native' | 'node-resolver';

// A JavaScript DNS engine measured in a fresh Node process, as dnsperf is a process of its own. By
// the time the bench measures engines, its own process has driven every load scenario: a heap of
// results, JIT code and timers no fresh program has. The native engine read 33.1k queries/s there in a
// full run, and 46k to 49k in a fresh process on the same VM the next day (one A query per call).
export function measureInChild(engine: ChildEngine, opts: DnsEngineOptions): Promise<DnsEngineRow['result']> {
  const script = path.join(__dirname, 'dns-child.js');
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [script, engine, JSON.stringify(opts)], { timeout: (opts.durationS + 20) * 1000 }, (err, stdout, stderr) => {
      const line = String(stdout).trim().split('\n').pop() ?? '';
      if (err !== null || line === '') return resolve({ ok: false, unavailable: `unavailable: the ${engine} measurement failed (${String(stderr).trim() || err?.message || 'no output'})` });
      resolve(JSON.parse(line) as DnsEngineRow['result']);
    });
    track(child, `${engine} dns engine`);
  });
}
