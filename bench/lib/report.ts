import { buildCharts, latencyConnections } from './charts';
import { cpuPerRequestUs } from './cpu';
import { formatCount, formatMicros, formatRatio, ratio } from './stats';
import { REFERENCE_CONNECTIONS } from './targets';
import type { BenchResults, LoadPoint, ScenarioResult, ServerName } from './types';

export const README_BEGIN = '<!-- bench:begin (written by npm run bench; edits here are replaced) -->';
export const README_END = '<!-- bench:end -->';

function point(s: ScenarioResult, server: ServerName, c: number): LoadPoint | null {
  const r = s.servers.find((x) => x.server === server);
  return r && 'points' in r ? (r.points.find((p) => p.connections === c) ?? null) : null;
}

function unavailable(s: ScenarioResult, server: ServerName): string | null {
  const r = s.servers.find((x) => x.server === server);
  if (r === undefined) return null;
  return 'unavailable' in r ? r.unavailable : null;
}

// A point with wrong statuses or socket errors is marked, so its speed is never read as clean.
function cell(p: LoadPoint | null, why: string | null): string {
  if (p === null) return why ?? '—';
  const e = p.errors;
  const bad = e.unexpectedStatus + e.connect + e.read + e.write + e.timeout;
  return bad > 0 ? `${formatCount(p.requestsPerSecond)} (${bad} failed)` : formatCount(p.requestsPerSecond);
}
const rss = (p: LoadPoint | null) => (p?.peakRssKiB != null ? `${(p.peakRssKiB / 1024).toFixed(0)} MiB` : '—');

const cpu = (p: LoadPoint | null) => (p?.cpu == null ? '—' : `${cpuPerRequestUs(p.cpu).toFixed(1)} µs (${p.cpu.busyPercent.toFixed(0)}%)`);

export function renderReadmeSection(results: BenchResults): string {
  const lines: string[] = [];
  const m = results.machine;
  lines.push(
    `Latest run: ${results.finishedAt} (\`npm run bench${results.mode === 'quick' ? ' -- --quick' : ''}\`, ${results.settings.durationS} s per point), ` +
      `commit \`${results.commit.slice(0, 12)}\`${results.dirty ? ' (uncommitted changes)' : ''}, ` +
      `${m.cpuModel} × ${m.cores}, ${(m.memoryMiB / 1024).toFixed(0)} GiB, Node ${m.node}, load average ${m.loadAverage1m} before the run. ` +
      `wrk (${results.settings.wrkThreads} threads) runs on the same machine as the servers and the ${results.settings.resolvers.length} Knot resolvers.`,
    '',
    'Targets:',
    '',
    '| target | result | numbers |',
    '|---|---|---|',
  );
  for (const t of results.targets) lines.push(`| ${t.description} | **${t.status}** | ${t.detail} |`);

  lines.push(
    '',
    'Requests/s and ratios (nettools ÷ baseline, nettools ÷ bare uWebSockets.js ceiling); p99 latency; peak RSS of each server process. ' +
      '"(N failed)": responses with another status than the scenario expects, socket errors or wrk timeouts (>10 s) during that run:',
    '',
  );
  lines.push('| scenario | conns | nettools | baseline | ceiling | vs baseline | vs ceiling | p99 nettools | p99 baseline | RSS nettools | RSS baseline |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const s of results.scenarios) {
    for (const c of results.settings.connections) {
      const ours = point(s, 'nettools', c);
      const base = point(s, 'baseline', c);
      const ceil = point(s, 'ceiling', c);
      const hasCeiling = s.servers.some((x) => x.server === 'ceiling');
      lines.push(
        `| ${s.scenario} | ${c} | ${cell(ours, unavailable(s, 'nettools'))} | ${cell(base, unavailable(s, 'baseline'))} | ${hasCeiling ? cell(ceil, unavailable(s, 'ceiling')) : '—'} | ` +
          `${formatRatio(ratio(ours?.requestsPerSecond, base?.requestsPerSecond))} | ${hasCeiling ? formatRatio(ratio(ours?.requestsPerSecond, ceil?.requestsPerSecond)) : '—'} | ` +
          `${ours ? formatMicros(ours.latencyUs.p99) : '—'} | ${base ? formatMicros(base.latencyUs.p99) : '—'} | ${rss(ours)} | ${rss(base)} |`,
      );
    }
  }

  const at = latencyConnections(results.settings.connections);
  lines.push(
    '',
    `Server CPU per request (user + system, reaped children such as the baseline's \`ping\` included) and, in brackets, how busy ` +
      `that kept the server, in percent of one core, at ${at} connections; for dns also the Knot resolvers together:`,
    '',
    '| scenario | nettools | baseline | ceiling | Knot resolvers |',
    '|---|---|---|---|---|',
  );
  for (const s of results.scenarios) {
    const ours = point(s, 'nettools', at);
    const knot = ours?.resolversBusyPercent;
    const hasCeiling = s.servers.some((x) => x.server === 'ceiling');
    lines.push(
      `| ${s.scenario} | ${cpu(ours)} | ${cpu(point(s, 'baseline', at))} | ${hasCeiling ? cpu(point(s, 'ceiling', at)) : '—'} | ${knot == null ? '—' : `${knot.toFixed(0)}%`} |`,
    );
  }

  lines.push(...variantRows(results, REFERENCE_CONNECTIONS));

  lines.push('', 'Engines (DNS: A queries to one Knot on loopback, 100 in flight; ICMP: 127.0.0.1):', '');
  lines.push('| engine | queries/s | notes |', '|---|---|---|');
  for (const row of results.engines.dns) {
    const r = row.result;
    lines.push(r.ok ? `| ${row.name} | ${formatCount(r.queriesPerSecond)} | ${r.completed} answered, ${r.failed} failed in ${r.durationS.toFixed(1)} s |` : `| ${row.name} | — | ${r.unavailable} |`);
  }
  lines.push('', '| ICMP | echoes/s | RTT median | samples |', '|---|---|---|---|');
  for (const row of results.engines.icmp) {
    const r = row.result;
    lines.push(
      r.ok
        ? `| ${row.name} | ${r.echoesPerSecond === null ? '—' : formatCount(r.echoesPerSecond)} | ${r.rttMedianUs === null ? '—' : `${r.rttMedianUs.toFixed(1)} µs`} | ${r.samples} |`
        : `| ${row.name} | — | ${r.unavailable} | — |`,
    );
  }

  lines.push('', `Latency percentiles are at ${at} connections; full numbers in [results/latest.json](results/latest.json).`, '');
  for (const chart of buildCharts(results)) lines.push(`![${chart.title}](results/${chart.name})`);
  return lines.join('\n');
}

// nettools as configured differently, beside the default: two worker threads (this machine also runs wrk
// on its two cores, so this shows what two threads cost and give here, not how they scale) and a key on
// every request.
function variantRows(results: BenchResults, at: number): string[] {
  const shown = (['nettools-workers2', 'nettools-redis', 'nettools-keyed'] as const).filter((v) => results.scenarios.some((s) => s.servers.some((x) => x.server === v)));
  if (shown.length === 0) return [];
  const label = { 'nettools-workers2': 'NETTOOLS_WORKERS=2', 'nettools-redis': 'budgets in Redis', 'nettools-keyed': 'with an API key (1,000 loaded)' };
  const rate = (p: LoadPoint | null) => (p === null ? '—' : `${formatCount(p.requestsPerSecond)} req/s, ${cpu(p)}`);
  const lines = ['', `nettools variants at ${at} connections (requests/s, server CPU per request [busy]):`, '', `| scenario | nettools | ${shown.map((v) => label[v]).join(' | ')} |`, `|---|---|${shown.map(() => '---|').join('')}`];
  for (const s of results.scenarios) {
    if (!shown.some((v) => s.servers.some((x) => x.server === v))) continue;
    lines.push(`| ${s.scenario} | ${rate(point(s, 'nettools', at))} | ${shown.map((v) => rate(point(s, v, at))).join(' | ')} |`);
  }
  return lines;
}

// Replaces the generated part of README.md, keeping everything around it.
export function spliceReadme(readme: string, section: string): string {
  const begin = readme.indexOf(README_BEGIN);
  const end = readme.indexOf(README_END);
  if (begin < 0 || end < begin) throw new Error('README.md has no benchmark markers; add them under "## Benchmarks"');
  return readme.slice(0, begin + README_BEGIN.length) + '\n' + section + '\n' + readme.slice(end);
}
