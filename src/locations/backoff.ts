// Capped exponential backoff with full jitter: the wait before attempt n (0-based) is uniform in
// [0, min(cap, base * 2^n)). Full jitter spreads a crowd of agents that lost the same hub at the same
// instant over the whole window, instead of sending them back together.
export function backoffMs(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}
