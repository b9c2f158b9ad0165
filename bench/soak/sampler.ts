import { readdirSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import type { Sample } from './types';

// Reads the server process from /proc and its /metrics text, once a second.

export function rssKiB(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export function openFds(pid: number): number | null {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

export interface MetricsReading {
  inFlight: Record<string, number>;
  loopLagP99Ms: number | null;
  loopLagMaxMs: number | null;
  loopLagMs: number | null;
  heapTotalBytes: number | null;
  heapUsedBytes: number | null;
  externalBytes: number | null;
  youngGenerationBytes: number | null;
  oldGenerationUsedBytes: number | null;
}

// prom-client's default metrics that say where the process's memory is.
type MemoryField = 'heapTotalBytes' | 'heapUsedBytes' | 'externalBytes' | 'youngGenerationBytes' | 'oldGenerationUsedBytes';
const MEMORY = new Map<string, MemoryField>([
  ['nodejs_heap_size_total_bytes', 'heapTotalBytes'],
  ['nodejs_heap_size_used_bytes', 'heapUsedBytes'],
  ['nodejs_external_memory_bytes', 'externalBytes'],
  ['nodejs_heap_space_size_total_bytes{space="new"}', 'youngGenerationBytes'],
  ['nodejs_heap_space_size_used_bytes{space="old"}', 'oldGenerationUsedBytes'],
]);

// Prometheus text: every sample line of a metric whose name contains "in_flight" (labels kept in the
// key), the event-loop delay prom-client measured since the previous scrape, and the V8 heap.
export function parseMetrics(text: string): MetricsReading {
  const inFlight: Record<string, number> = {};
  const memory: Pick<MetricsReading, MemoryField> = {
    heapTotalBytes: null,
    heapUsedBytes: null,
    externalBytes: null,
    youngGenerationBytes: null,
    oldGenerationUsedBytes: null,
  };
  let p99: number | null = null;
  let max: number | null = null;
  let lag: number | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line === '') continue;
    const space = line.lastIndexOf(' ');
    const key = line.slice(0, space);
    const value = Number(line.slice(space + 1));
    if (!Number.isFinite(value)) continue;
    const name = key.replace(/\{.*$/, '');
    if (name.includes('in_flight')) inFlight[key] = value;
    else if (name === 'nodejs_eventloop_lag_p99_seconds') p99 = value * 1000;
    else if (name === 'nodejs_eventloop_lag_max_seconds') max = value * 1000;
    else if (name === 'nodejs_eventloop_lag_seconds') lag = value * 1000;
    else if (MEMORY.has(key)) memory[MEMORY.get(key) as keyof typeof memory] = value;
  }
  return { inFlight, loopLagP99Ms: p99, loopLagMaxMs: max, loopLagMs: lag, ...memory };
}

export function scrape(port: number, timeoutMs = 5000): Promise<MetricsReading | null> {
  return new Promise((resolve) => {
    const req = get({ host: '127.0.0.1', port, path: '/metrics', timeout: timeoutMs }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve(res.statusCode === 200 ? parseMetrics(text) : null));
      res.on('error', () => resolve(null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}

const kiB = (bytes: number | null | undefined) => (bytes === null || bytes === undefined ? null : Math.round(bytes / 1024));

export async function takeSample(pid: number, port: number, t: number, requests: number, faults: string[]): Promise<Sample> {
  const metrics = await scrape(port);
  return {
    t,
    rssKiB: rssKiB(pid),
    fds: openFds(pid),
    heapTotalKiB: kiB(metrics?.heapTotalBytes),
    heapUsedKiB: kiB(metrics?.heapUsedBytes),
    externalKiB: kiB(metrics?.externalBytes),
    youngGenerationKiB: kiB(metrics?.youngGenerationBytes),
    oldGenerationUsedKiB: kiB(metrics?.oldGenerationUsedBytes),
    inFlight: metrics?.inFlight ?? {},
    loopLagP99Ms: metrics?.loopLagP99Ms ?? null,
    loopLagMaxMs: metrics?.loopLagMaxMs ?? null,
    loopLagMs: metrics?.loopLagMs ?? null,
    requests,
    faults,
  };
}
