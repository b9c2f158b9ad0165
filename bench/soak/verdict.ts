import type { Sample, SoakVerdict, Trend } from './types';

// Whether RSS or open fds keep growing after warm-up: a slope test, not a fixed ceiling. A series grows
// when both hold over the post-warm-up window:
//  - the least-squares slope is positive beyond noise: the lower end of its 95% interval, projected over
//    the window, exceeds the tolerance;
//  - the growth is sustained, not one step: the median of the last third exceeds the first third's by
//    more than half the tolerance.
// Sawtooth from garbage collection and wander within the tolerance pass; a steady climb fails, and so
// does a step larger than the tolerance after warm-up (the warm-up is there for caches to fill).

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export function trendOf(points: Array<[number, number]>, tolerance: number): Trend {
  const n = points.length;
  const empty: Trend = { slopePerHour: 0, slopeLowPerHour: 0, firstThirdMedian: Number.NaN, lastThirdMedian: Number.NaN, tolerance, growing: false };
  if (n < 6) return empty;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const [x, y] of points) {
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (y - my);
  }
  if (sxx === 0) return empty;
  const slope = sxy / sxx;
  let sse = 0;
  for (const [x, y] of points) sse += (y - (my + slope * (x - mx))) ** 2;
  const se = Math.sqrt(sse / (n - 2) / sxx);
  const slopeLow = slope - 1.96 * se;
  const third = Math.floor(n / 3);
  const firstThirdMedian = median(points.slice(0, third).map(([, y]) => y));
  const lastThirdMedian = median(points.slice(n - third).map(([, y]) => y));
  const window = (points[n - 1] as [number, number])[0] - (points[0] as [number, number])[0];
  const growing = slopeLow * window > tolerance && lastThirdMedian - firstThirdMedian > tolerance / 2;
  return { slopePerHour: slope * 3600, slopeLowPerHour: slopeLow * 3600, firstThirdMedian, lastThirdMedian, tolerance, growing };
}

// RSS may wander by 5% of its level (at least 8 MiB) over a run; fds by 4 (sockets opening and closing).
export function rssTrend(samples: Sample[], warmupS: number): Trend {
  const pts = series(samples, warmupS, (s) => s.rssKiB);
  const level = median(pts.map(([, y]) => y));
  return trendOf(pts, Math.max(8 * 1024, 0.05 * (Number.isFinite(level) ? level : 0)));
}

export function fdTrend(samples: Sample[], warmupS: number): Trend {
  return trendOf(series(samples, warmupS, (s) => s.fds), 4);
}

function series(samples: Sample[], warmupS: number, pick: (s: Sample) => number | null): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const s of samples) {
    const v = pick(s);
    if (s.t >= warmupS && v !== null) out.push([s.t, v]);
  }
  return out;
}

export interface VerdictInputs {
  rss: Trend;
  fds: Trend;
  idleInFlight: Record<string, number>;
  inFlightAtEnd: Record<string, number>;
  status500: number;
  serverExit: string | null; // why the server died during the run, if it did
  samples: number;
  expectedSamples: number;
  harnessProblems: string[];
}

export function judge(i: VerdictInputs): SoakVerdict {
  const failures: string[] = [];
  const notes: string[] = [];
  for (const p of i.harnessProblems) failures.push(`the soak itself failed: ${p}`);
  if (i.serverExit !== null) failures.push(`the server exited during the run: ${i.serverExit}`);
  if (i.rss.growing) failures.push(`RSS kept growing after warm-up: ${kib(i.rss.slopeLowPerHour)}/h at least (median ${kib(i.rss.firstThirdMedian)} -> ${kib(i.rss.lastThirdMedian)})`);
  if (i.fds.growing) failures.push(`open fds kept growing after warm-up: at least ${i.fds.slopeLowPerHour.toFixed(1)}/h (median ${i.fds.firstThirdMedian} -> ${i.fds.lastThirdMedian})`);
  for (const [name, idle] of Object.entries(i.idleInFlight)) {
    const end = i.inFlightAtEnd[name];
    if (end === undefined) failures.push(`${name} was missing from /metrics at the end`);
    else if (end !== idle) failures.push(`${name} did not return to idle: ${end - idle} still in flight at the end`);
  }
  if (Object.keys(i.idleInFlight).length === 0) failures.push('no in-flight gauge was found in /metrics');
  if (i.status500 > 0) failures.push(`${i.status500} request(s) got a 500`);
  if (i.samples < i.expectedSamples * 0.9) notes.push(`only ${i.samples} of ${i.expectedSamples} samples were taken (the sampler fell behind)`);
  return { ok: failures.length === 0, failures, notes };
}

function kib(v: number): string {
  return `${(v / 1024).toFixed(1)} MiB`;
}
