import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { Machine } from './types';

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryMiB: Math.round(os.totalmem() / 1024 / 1024),
    kernel: os.release(),
    node: process.version,
    loadAverage1m: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
  };
}

// Read when the run starts: the code measured is the code at that moment. The run's own outputs
// (bench/results/, README.md) do not make the tree dirty.
export function gitCommit(cwd: string): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd }).toString().trim();
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ':!bench/results', ':!README.md'], { cwd });
    const dirty = status.toString().trim() !== '';
    return { commit, dirty };
  } catch {
    return { commit: 'unknown', dirty: false };
  }
}
