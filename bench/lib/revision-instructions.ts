import { countInstructions, type InstructionCount } from './instruction-count';
import { say } from './log';
import type { RevisionBuild } from './revision-builds';
import type { RevisionOptions } from './revision-options';
import { SCENARIOS, type Scenario } from './scenarios';
import type { ScenarioName } from './types';

// `npm run bench:revisions -- <base> [<other>] --instructions`: each build's instructions per request in
// each scenario under callgrind (bench/lib/instruction-count.ts), one build after the other, and the
// ratio other ÷ base. Counts do not move with the machine's load as CPU time does.

export type InstructionRow =
  | { scenario: ScenarioName; base: InstructionCount; other: InstructionCount; ratio: number; within: boolean }
  | { scenario: ScenarioName; unavailable: string };

export async function countRevisions(base: RevisionBuild, other: RevisionBuild, opts: RevisionOptions, resolvers: string): Promise<InstructionRow[]> {
  const rows: InstructionRow[] = [];
  const settings = { warmupRequests: opts.warmupRequests, requests: opts.requests };
  for (const name of opts.scenarios) {
    const sc = SCENARIOS.find((s) => s.name === name) as Scenario;
    try {
      const a = await countInstructions(base.entry, resolvers, sc, settings, `${base.commit.slice(0, 12)}-${name}-a`);
      const b = await countInstructions(other.entry, resolvers, sc, settings, `${other.commit.slice(0, 12)}${other.dirty ? '-dirty' : ''}-${name}-b`);
      const ratio = b.perRequest / a.perRequest;
      rows.push({ scenario: name, base: a, other: b, ratio, within: ratio <= opts.limit });
    } catch (err) {
      say(`${name}: not counted: ${(err as Error).message}`);
      rows.push({ scenario: name, unavailable: (err as Error).message.split('\n')[0] as string });
    }
  }
  return rows;
}

export function formatInstructionTable(rows: readonly InstructionRow[], baseLabel: string, otherLabel: string, limit: number): string {
  const lines = [
    `| scenario | instructions/req ${baseLabel} | instructions/req ${otherLabel} | ratio (new ÷ old) | within ${limit}x |`,
    '|---|---|---|---|---|',
  ];
  for (const row of rows) {
    if ('unavailable' in row) lines.push(`| ${row.scenario} | not counted: ${row.unavailable} | | | |`);
    else lines.push(`| ${row.scenario} | ${Math.round(row.base.perRequest)} | ${Math.round(row.other.perRequest)} | ${row.ratio.toFixed(4)}x | ${row.within ? 'yes' : '**no**'} |`);
  }
  return lines.join('\n');
}
