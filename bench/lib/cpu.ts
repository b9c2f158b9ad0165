import { readFileSync } from 'node:fs';

// CPU time of a process from /proc/<pid>/stat, so the report can say how close a server was to the
// machine's limit (busy share of a core) and what one request cost it (µs of CPU). Children the
// process has reaped count too: the baseline's ping runs are part of what it spends per request.

// USER_HZ: the unit of the /proc times on every mainstream Linux build, whatever the kernel's HZ.
export const CLOCK_TICKS_PER_SECOND = 100;

export interface CpuTicks {
  user: number; // utime + cutime
  system: number; // stime + cstime
}

export interface CpuUse {
  userUsPerRequest: number;
  systemUsPerRequest: number;
  // CPU time over wall time, in percent: 100 is one core kept busy the whole run.
  busyPercent: number;
}

// The command name (field 2) may hold spaces and parentheses: fields are counted after the last ")".
export function parseProcStat(text: string): CpuTicks | null {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const fields = text.slice(close + 2).trim().split(/\s+/); // fields[0] is field 3 (state)
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
  if (![utime, stime, cutime, cstime].every((n) => Number.isInteger(n) && (n as number) >= 0)) return null;
  return { user: (utime as number) + (cutime as number), system: (stime as number) + (cstime as number) };
}

export function readCpuTicks(pid: number): CpuTicks | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

export function cpuUse(before: CpuTicks | null, after: CpuTicks | null, requests: number, wallS: number): CpuUse | null {
  if (before === null || after === null || requests <= 0 || wallS <= 0) return null;
  const userUs = ((after.user - before.user) / CLOCK_TICKS_PER_SECOND) * 1e6;
  const systemUs = ((after.system - before.system) / CLOCK_TICKS_PER_SECOND) * 1e6;
  return {
    userUsPerRequest: userUs / requests,
    systemUsPerRequest: systemUs / requests,
    busyPercent: ((userUs + systemUs) / 1e6 / wallS) * 100,
  };
}

export function cpuPerRequestUs(use: CpuUse): number {
  return use.userUsPerRequest + use.systemUsPerRequest;
}

// Several processes (the Knot resolvers) as one busy share.
export function busyPercent(before: Array<CpuTicks | null>, after: Array<CpuTicks | null>, wallS: number): number | null {
  let ticks = 0;
  for (let i = 0; i < before.length; i++) {
    const b = before[i];
    const a = after[i];
    if (b == null || a == null) return null;
    ticks += a.user - b.user + a.system - b.system;
  }
  return wallS > 0 ? (ticks / CLOCK_TICKS_PER_SECOND / wallS) * 100 : null;
}
