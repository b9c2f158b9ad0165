import { medians, pairedRatio } from './pairs';
import { formatCount } from './stats';
import type { PairResult, ScenarioName } from './types';

// One revision beside another: per scenario, the median CPU per request of each and their ratio
// (other ÷ base), read as the bench's pairs read theirs: the median of the rounds' ratios, each round's two
// runs back to back, so a moment when the machine was slow or fast weighs on both sides alike.

export type RevisionRow =
  | {
      scenario: ScenarioName;
      rounds: number;
      baseCpuUs: number | null;
      otherCpuUs: number | null;
      cpuRatio: number | null;
      baseRps: number;
      otherRps: number;
      rpsRatio: number | null;
      within: boolean | null; // cpuRatio <= limit; null when there is no ratio
    }
  | { scenario: ScenarioName; unavailable: string };

export function revisionRows(pairs: readonly PairResult[], limit: number): RevisionRow[] {
  return pairs.map((p) => {
    if ('unavailable' in p) return { scenario: p.scenario, unavailable: p.unavailable };
    const base = medians(p.firstRuns);
    const other = medians(p.secondRuns);
    const cpuRatio = pairedRatio(p.secondRuns, p.firstRuns, 'cpuUsPerRequest');
    return {
      scenario: p.scenario,
      rounds: Math.min(p.firstRuns.length, p.secondRuns.length),
      baseCpuUs: base.cpuUsPerRequest,
      otherCpuUs: other.cpuUsPerRequest,
      cpuRatio,
      baseRps: base.requestsPerSecond,
      otherRps: other.requestsPerSecond,
      rpsRatio: pairedRatio(p.secondRuns, p.firstRuns, 'requestsPerSecond'),
      within: cpuRatio === null ? null : cpuRatio <= limit,
    };
  });
}

const us = (v: number | null) => (v === null ? '?' : `${v.toFixed(1)} µs`);
const x = (v: number | null) => (v === null ? '?' : `${v.toFixed(3)}x`);

// A Markdown table, as bench/README.md keeps results.
export function formatRevisionTable(rows: readonly RevisionRow[], baseLabel: string, otherLabel: string, limit: number): string {
  const head = [
    `| scenario | CPU/req ${baseLabel} | CPU/req ${otherLabel} | CPU ratio (new ÷ old) | within ${limit}x | req/s ${baseLabel} / ${otherLabel} | req/s ratio | rounds |`,
    '|---|---|---|---|---|---|---|---|',
  ];
  const body = rows.map((r) => {
    if ('unavailable' in r) return `| ${r.scenario} | not measured: ${r.unavailable} | | | | | | |`;
    const within = r.within === null ? '?' : r.within ? 'yes' : '**no**';
    return `| ${r.scenario} | ${us(r.baseCpuUs)} | ${us(r.otherCpuUs)} | ${x(r.cpuRatio)} | ${within} | ${formatCount(r.baseRps)} / ${formatCount(r.otherRps)} | ${x(r.rpsRatio)} | ${r.rounds} |`;
  });
  return [...head, ...body].join('\n');
}
