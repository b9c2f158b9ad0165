import type { DnsEngineRow } from '../lib/types';

type Run = DnsEngineRow['result'];

// The run with the median queries/s (the lower middle one of an even count). A run that could not be
// measured is not outvoted by the others: the first such one is the answer, so the failure is seen.
export function medianRun(runs: readonly Run[]): Run {
  const failed = runs.find((r) => !r.ok);
  if (failed !== undefined) return failed;
  if (runs.length === 0) return { ok: false, unavailable: 'unavailable: not run' };
  const sorted = [...runs].sort((a, b) => (a.ok && b.ok ? a.queriesPerSecond - b.queriesPerSecond : 0));
  return sorted[Math.floor((sorted.length - 1) / 2)] as Run;
}
