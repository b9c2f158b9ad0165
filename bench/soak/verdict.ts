import type { AfterCollections, Sample, SoakVerdict, Trend } from './types';

// Whether memory or open fds keep growing after warm-up. RSS itself is not judged: V8 sizes its heap by
// its own rules, growing the young generation from 16 to 32 MiB once the load has run a while (13 MiB
// more RSS, after 2 minutes in one run, 5.5 in another) and shrinking it and the old generation again
// when the server is starved of CPU for a moment (30 MiB less), so RSS steps both ways with no leak.
// What is judged is where a leak would pile up: RSS outside the V8 heap (native memory: the addon,
// uWS, Buffers, malloc) by a slope test, and the old generation after each major collection (the live
// JavaScript objects) by its rise.
//
// The slope test is decided on the later half of the post-warm-up window. A series grows when both hold
// there:
//  - the least-squares slope is positive beyond noise: the lower end of its 95% interval, projected over
//    the whole post-warm-up window, exceeds the tolerance;
//  - the growth is sustained, not one step: the median of the half's last third exceeds its first
//    third's by more than half the tolerance, scaled to the half's share of the window.
// Sawtooth and wander within the tolerance pass, and so does a step that settled before the later half;
// a steady climb fails, and so does a step within the later half (nothing yet shows that it settled).

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

interface Fit {
  slope: number; // per second
  slopeLow: number;
  firstThirdMedian: number;
  lastThirdMedian: number;
  span: number; // seconds from the first point to the last
}

function fit(points: Array<[number, number]>): Fit | null {
  const n = points.length;
  if (n < 6) return null;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const [x, y] of points) {
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (y - my);
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  let sse = 0;
  for (const [x, y] of points) sse += (y - (my + slope * (x - mx))) ** 2;
  const se = Math.sqrt(sse / (n - 2) / sxx);
  const third = Math.floor(n / 3);
  return {
    slope,
    slopeLow: slope - 1.96 * se,
    firstThirdMedian: median(points.slice(0, third).map(([, y]) => y)),
    lastThirdMedian: median(points.slice(n - third).map(([, y]) => y)),
    span: (points[n - 1] as [number, number])[0] - (points[0] as [number, number])[0],
  };
}

export function trendOf(points: Array<[number, number]>, tolerance: number): Trend {
  const lateStart = points.length >> 1;
  const empty: Trend = {
    slopePerHour: 0,
    slopeLowPerHour: 0,
    firstThirdMedian: Number.NaN,
    lastThirdMedian: Number.NaN,
    tolerance,
    lateFromS: points[lateStart]?.[0] ?? Number.NaN,
    lateSlopePerHour: 0,
    lateSlopeLowPerHour: 0,
    growing: false,
  };
  const all = fit(points);
  if (all === null || all.span === 0) return empty;
  const whole = { ...empty, slopePerHour: all.slope * 3600, slopeLowPerHour: all.slopeLow * 3600, firstThirdMedian: all.firstThirdMedian, lastThirdMedian: all.lastThirdMedian };
  const late = fit(points.slice(lateStart));
  if (late === null) return whole;
  const growing = late.slopeLow * all.span > tolerance && late.lastThirdMedian - late.firstThirdMedian > (tolerance / 2) * (late.span / all.span);
  return { ...whole, lateSlopePerHour: late.slope * 3600, lateSlopeLowPerHour: late.slopeLow * 3600, growing };
}

// RSS may wander by 5% of its level (at least 8 MiB) over a run; fds by 4 (sockets opening and closing).
function rssTolerance(samples: Sample[], warmupS: number): number {
  const level = median(series(samples, warmupS, (s) => s.rssKiB).map(([, y]) => y));
  return Math.max(8 * 1024, 0.05 * (Number.isFinite(level) ? level : 0));
}

// RSS as read, for the record.
export function rssTrend(samples: Sample[], warmupS: number): Trend {
  return trendOf(series(samples, warmupS, (s) => s.rssKiB), rssTolerance(samples, warmupS));
}

// RSS less what the V8 heap holds from the OS at that moment.
export function rssOutsideHeapTrend(samples: Sample[], warmupS: number): Trend {
  const pick = (s: Sample) => (s.rssKiB === null || s.heapTotalKiB === null ? null : s.rssKiB - s.heapTotalKiB);
  return trendOf(series(samples, warmupS, pick), rssTolerance(samples, warmupS));
}

// Promotion only adds to the old generation's use and only a major collection takes from it, so the
// bottom of each fall of at least 1 MiB is a reading just after one.
export function afterFalls(points: Array<[number, number]>, fall = 1024): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let top = Number.NEGATIVE_INFINITY;
  let bottom: [number, number] | null = null;
  for (const p of points) {
    if (bottom !== null && p[1] < bottom[1]) bottom = p;
    else if (bottom === null && p[1] < top) bottom = p;
    else {
      if (bottom !== null && top - bottom[1] >= fall) out.push(bottom);
      if (bottom !== null || p[1] > top) top = p[1];
      bottom = null;
    }
  }
  if (bottom !== null && top - bottom[1] >= fall) out.push(bottom);
  return out;
}

// The live JavaScript objects may wander by 4 MiB or a fifth of their level over a run. Objects above
// about 128 KiB (a long array, a big Map's table) live in the large-object space and are not counted
// here; the objects a growing Map or list holds are.
export function oldAfterCollections(samples: Sample[], warmupS: number): AfterCollections {
  const lows = afterFalls(series(samples, warmupS, (s) => s.oldGenerationUsedKiB)).map(([, y]) => y);
  const third = Math.max(1, Math.floor(lows.length / 3));
  const firstThirdMedian = median(lows.slice(0, third));
  const lastThirdMedian = median(lows.slice(-third));
  const tolerance = Math.max(4 * 1024, 0.2 * (Number.isFinite(firstThirdMedian) ? firstThirdMedian : 0));
  return { collections: lows.length, firstThirdMedian, lastThirdMedian, tolerance, growing: lows.length >= 2 && lastThirdMedian - firstThirdMedian > tolerance };
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
  rss: Trend; // as read: only a note when it moved
  rssOutsideHeap: Trend;
  oldAfterCollections: AfterCollections;
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
  failures.push(...memoryFailures(i));
  notes.push(...memoryNotes(i));
  if (i.fds.growing) failures.push(`open fds kept growing to the end: at least ${i.fds.lateSlopeLowPerHour.toFixed(1)}/h from ${i.fds.lateFromS} s (median after warm-up ${i.fds.firstThirdMedian} -> ${i.fds.lastThirdMedian})`);
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

function memoryFailures({ rss, rssOutsideHeap: outside, oldAfterCollections: old }: VerdictInputs): string[] {
  const out: string[] = [];
  if (Number.isNaN(outside.firstThirdMedian) && !Number.isNaN(rss.firstThirdMedian)) out.push('the V8 heap was missing from /metrics, so memory could not be judged');
  if (outside.growing) out.push(`RSS outside the V8 heap kept growing to the end: ${kib(outside.lateSlopeLowPerHour)}/h at least from ${outside.lateFromS} s (median after warm-up ${kib(outside.firstThirdMedian)} -> ${kib(outside.lastThirdMedian)})`);
  if (old.growing) out.push(`the old generation after major collections grew: median ${kib(old.firstThirdMedian)} -> ${kib(old.lastThirdMedian)} over ${old.collections} collections`);
  return out;
}

function memoryNotes({ rss, rssOutsideHeap: outside, oldAfterCollections: old }: VerdictInputs): string[] {
  const out: string[] = [];
  if (old.collections < 2) out.push(`only ${old.collections} major collection(s) after warm-up: the old generation was not judged`);
  if (!outside.growing && !old.growing && (rss.growing || Math.abs(rss.lastThirdMedian - rss.firstThirdMedian) > rss.tolerance / 2)) {
    out.push(`RSS moved after warm-up (median ${kib(rss.firstThirdMedian)} -> ${kib(rss.lastThirdMedian)}) while RSS outside the V8 heap (${kib(outside.firstThirdMedian)} -> ${kib(outside.lastThirdMedian)}) and the old generation after collections (${kib(old.firstThirdMedian)} -> ${kib(old.lastThirdMedian)}) held: V8 resizing its heap, not a leak`);
  }
  return out;
}

function kib(v: number): string {
  return `${(v / 1024).toFixed(1)} MiB`;
}
