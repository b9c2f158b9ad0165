import { renderBarChart, type Series } from './svg';
import { formatCount, formatMicros } from './stats';
import { REFERENCE_CONNECTIONS } from './targets';
import type { BenchResults, ScenarioResult } from './types';

export interface ChartFile {
  name: string; // file name under bench/results/
  title: string;
  svg: string;
}

const PERCENTILES = [
  ['p50', 'p50'],
  ['p90', 'p90'],
  ['p99', 'p99'],
  ['p999', 'p99.9'],
] as const;

// Unavailable servers stay in the legend with their reason and no bars, so a gap is never silent.
function label(s: ScenarioResult['servers'][number]): string {
  return 'unavailable' in s ? `${s.server} (${s.unavailable})` : s.server;
}

// The latency chart shows one connection count: the targets' reference when it was run.
export function latencyConnections(connections: number[]): number {
  return connections.includes(REFERENCE_CONNECTIONS) ? REFERENCE_CONNECTIONS : (connections[connections.length - 1] as number);
}

export function buildCharts(results: BenchResults): ChartFile[] {
  const files: ChartFile[] = [];
  const conns = results.settings.connections;
  const lc = latencyConnections(conns);
  for (const scenario of results.scenarios) {
    const throughput: Series[] = scenario.servers.map((s) => ({
      name: label(s),
      values: conns.map((c) => ('points' in s ? (s.points.find((p) => p.connections === c)?.requestsPerSecond ?? null) : null)),
    }));
    files.push({
      name: `${scenario.scenario}-throughput.svg`,
      title: `${scenario.scenario}: requests/s per connection count`,
      svg: renderBarChart({
        title: `${scenario.scenario}: requests/s by connection count`,
        subtitle: `${scenario.description} · ${results.settings.durationS} s runs · ${results.machine.cores} cores`,
        categories: conns.map((c) => `${c} conn`),
        series: throughput,
        yLabel: 'requests/s',
        scale: 'linear',
        format: formatCount,
      }),
    });
    const latency: Series[] = scenario.servers.map((s) => {
      const point = 'points' in s ? s.points.find((p) => p.connections === lc) : undefined;
      return { name: label(s), values: PERCENTILES.map(([key]) => (point ? point.latencyUs[key] : null)) };
    });
    files.push({
      name: `${scenario.scenario}-latency.svg`,
      title: `${scenario.scenario}: latency percentiles at ${lc} connections`,
      svg: renderBarChart({
        title: `${scenario.scenario}: latency percentiles at ${lc} connections (log scale)`,
        subtitle: scenario.description,
        categories: PERCENTILES.map(([, name]) => name),
        series: latency,
        yLabel: 'latency',
        scale: 'log',
        format: formatMicros,
      }),
    });
  }
  return files;
}
