import { medians, pairedRatio } from './pairs';
import { formatCount } from './stats';
import type { PairResult, ScenarioName } from './types';

// Node 24 beside Node 20: the ratios of one alternating-rounds run of each scenario (no target; a number
// to know). Each ratio is Node 24 ÷ Node 20, the median of the rounds' ratios, as the bench's pairs.

export type NodeLineRow =
  | { scenario: ScenarioName; rounds: number; requestsRatio: number | null; cpuRatio: number | null; node20: string; node24: string }
  | { scenario: ScenarioName; unavailable: string };

export function nodeLineRows(pairs: readonly PairResult[]): NodeLineRow[] {
  return pairs.map((p) => {
    if ('unavailable' in p) return { scenario: p.scenario, unavailable: p.unavailable };
    const side = (runs: typeof p.firstRuns) => {
      const m = medians(runs);
      return `${formatCount(m.requestsPerSecond)} req/s, ${m.cpuUsPerRequest === null ? '?' : m.cpuUsPerRequest.toFixed(1)} µs CPU/req`;
    };
    return {
      scenario: p.scenario,
      rounds: p.firstRuns.length,
      requestsRatio: pairedRatio(p.secondRuns, p.firstRuns, 'requestsPerSecond'),
      cpuRatio: pairedRatio(p.secondRuns, p.firstRuns, 'cpuUsPerRequest'),
      node20: side(p.firstRuns),
      node24: side(p.secondRuns),
    };
  });
}

const fmt = (r: number | null) => (r === null ? '?' : `${r.toFixed(2)}x`);

export function formatNodeLineRow(row: NodeLineRow): string {
  if ('unavailable' in row) return `${row.scenario}: not measured (${row.unavailable})`;
  return `${row.scenario}: Node 24 ÷ Node 20 = ${fmt(row.requestsRatio)} req/s, ${fmt(row.cpuRatio)} CPU per request (${row.rounds} rounds; medians Node 20 ${row.node20}, Node 24 ${row.node24})`;
}
