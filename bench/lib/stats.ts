// Small numeric helpers shared by the runner, the report and the tests.

// Nearest-rank percentile (the value a reader could find in the sample); null for no samples.
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile ${p} is outside 0..100`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

// The usual median: the middle value, or the mean of the two middle values.
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

// a / b, or null when either side is missing or b is not positive.
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a === null || a === undefined || b === null || b === undefined || !(b > 0)) return null;
  return a / b;
}

export function formatRatio(r: number | null): string {
  if (r === null) return 'n/a';
  return r >= 10 ? `${r.toFixed(0)}x` : `${r.toFixed(2)}x`;
}

// 1234567 -> "1.23M", 45678 -> "45.7k", 812 -> "812".
export function formatCount(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(2)}k`;
  return n >= 100 || Number.isInteger(n) ? n.toFixed(0) : n.toFixed(1);
}

// Microseconds in the unit a human reads fastest.
export function formatMicros(us: number): string {
  if (us >= 1e6) return `${(us / 1e6).toFixed(2)} s`;
  if (us >= 1e3) return `${(us / 1e3).toFixed(2)} ms`;
  return `${us.toFixed(0)} µs`;
}
