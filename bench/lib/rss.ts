import { readFileSync, writeFileSync } from 'node:fs';

// Peak RSS per scenario without restarting the server: Linux resets a process's high-water mark
// (VmHWM) to its current RSS when "5" is written to /proc/<pid>/clear_refs (Linux >= 4.0).
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export function readPeakRssKiB(pid: number): number | null {
  try {
    return parseVmHWM(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return null;
  }
}

export function parseVmHWM(status: string): number | null {
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  return m ? Number(m[1]) : null;
}
