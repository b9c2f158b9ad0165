import type { Pair } from './scenarios';
import { median } from './stats';
import type { PairResult, PairRun, PairRuns, ScenarioName, ScenarioResult, ServerName } from './types';

// The alternating pairs (PairRuns): whether one can be measured, which one a target reads, and the
// medians of its runs. The median, not the mean: one run that wrk or Knot starved for a second would
// drag a mean along.

// Why a pair cannot be measured (one of its servers was not run or was unavailable in its scenario), or null.
export function pairBlocked(pair: Pair, scenarios: readonly ScenarioResult[]): string | null {
  const servers = scenarios.find((s) => s.scenario === pair.scenario)?.servers ?? [];
  for (const name of [pair.first, pair.second]) {
    const r = servers.find((x) => x.server === name);
    if (r === undefined) return `${name} was not run for ${pair.scenario}`;
    if ('unavailable' in r) return `${name} ${pair.scenario}: ${r.unavailable}`;
  }
  return null;
}

// Which of two measured sides (a cost pair; the DNS engine and dnsperf) runs first in a round: they take
// turns. A run leaves the machine warmer or its page cache and sockets in another state than it found
// them; always going second would charge that to one side, and a drift of the VM's speed within a round
// would too.
export function roundOrder(round: number): readonly ['first', 'second'] | readonly ['second', 'first'] {
  return round % 2 === 0 ? (['first', 'second'] as const) : (['second', 'first'] as const);
}

export type PairLookup = { ok: true; pair: PairRuns } | { ok: false; why: string };

export function findPair(pairs: readonly PairResult[], scenario: ScenarioName, first: ServerName, second: ServerName): PairLookup {
  const found = pairs.find((p) => p.scenario === scenario && p.first === first && p.second === second);
  if (found === undefined) return { ok: false, why: `no alternating runs of ${first} and ${second} (${scenario}) in this run` };
  if ('unavailable' in found) return { ok: false, why: found.unavailable };
  if (found.firstRuns.length === 0 || found.secondRuns.length === 0) return { ok: false, why: `the alternating runs of ${first} and ${second} (${scenario}) are empty` };
  return { ok: true, pair: found };
}

export interface Medians {
  requestsPerSecond: number;
  // null when any run has no CPU reading: a median of the runs that happen to have one is another sample.
  cpuUsPerRequest: number | null;
}

// The median over rounds of numerator ÷ denominator for one measure, each round's two runs taken back to
// back. The VM's speed moves by 10-20% within seconds: a round where both runs were slow or fast keeps its
// ratio, while the medians of each server's runs can come from different moments. null when a run lacks
// the reading or the rounds do not pair up.
export function pairedRatio(numerator: readonly PairRun[], denominator: readonly PairRun[], measure: keyof PairRun): number | null {
  return medianOfRatios(
    numerator.map((r) => r[measure]),
    denominator.map((r) => r[measure]),
  );
}

// The median of numerators[i] ÷ denominators[i]; null when the lists do not pair up, are empty, or a round
// lacks a reading or has a zero denominator.
export function medianOfRatios(numerators: ReadonlyArray<number | null>, denominators: ReadonlyArray<number | null>): number | null {
  if (numerators.length !== denominators.length || numerators.length === 0) return null;
  const ratios: number[] = [];
  for (let i = 0; i < numerators.length; i++) {
    const n = numerators[i] as number | null;
    const d = denominators[i] as number | null;
    if (n === null || d === null || d === 0) return null;
    ratios.push(n / d);
  }
  return median(ratios) as number;
}

export function medians(runs: readonly PairRun[]): Medians {
  const cpu = runs.map((r) => r.cpuUsPerRequest);
  return {
    requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)) as number,
    cpuUsPerRequest: cpu.length > 0 && cpu.every((c) => c !== null) ? median(cpu as number[]) : null,
  };
}
