/**
 * Monotonic milliseconds as an integer. Wall-clock steps (NTP corrections, manual changes) must not
 * refill or drain buckets, and integer readings keep the bucket arithmetic exact.
 */
export function monotonicMs(): number {
  return Math.floor(performance.now());
}
