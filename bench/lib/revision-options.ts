import type { ScenarioName } from './types';

// `npm run bench:revisions -- <base-rev> [<other-rev>] [--same] [--rounds N] [--run-s S] [--connections C]
// [--scenarios a,b] [--limit X]`. Every duration here bounds the run.

export const REVISION_SCENARIOS: readonly ScenarioName[] = ['validation', 'dns', 'dns-hot', 'ping'];

export interface RevisionOptions {
  base: string;
  // Another revision, or null for this clone's working tree as it is built now.
  other: string | null;
  // Base against itself (two servers of one build): the noise floor of the machine.
  same: boolean;
  rounds: number;
  runS: number;
  warmupS: number;
  connections: number;
  scenarios: ScenarioName[];
  // The ratio of CPU per request (other ÷ base) a scenario may reach and still count as "within".
  limit: number;
}

export const REVISION_USAGE = 'usage: npm run bench:revisions -- <base-rev> [<other-rev> | --same] [--rounds N] [--run-s S] [--connections C] [--scenarios validation,dns,dns-hot,ping] [--limit 1.02]';

function positive(name: string, text: string | undefined, integer: boolean): number | string {
  const n = Number(text);
  if (text === undefined || !Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) return `${name} needs a positive ${integer ? 'whole ' : ''}number, not "${text ?? ''}"`;
  return n;
}

export function parseRevisionOptions(argv: readonly string[]): RevisionOptions | string {
  const revs: string[] = [];
  const o = { same: false, rounds: 9, runS: 2, warmupS: 2, connections: 64, scenarios: [...REVISION_SCENARIOS], limit: 1.02 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const numeric = { '--rounds': 'rounds', '--run-s': 'runS', '--connections': 'connections', '--limit': 'limit' } as const;
    if (arg === '--same') o.same = true;
    else if (arg in numeric) {
      const key = numeric[arg as keyof typeof numeric];
      const n = positive(arg, argv[++i], key === 'rounds' || key === 'connections');
      if (typeof n === 'string') return n;
      o[key] = n;
    } else if (arg === '--scenarios') {
      const names = (argv[++i] ?? '').split(',').filter((s) => s !== '');
      const unknown = names.filter((s) => !REVISION_SCENARIOS.includes(s as ScenarioName));
      if (names.length === 0 || unknown.length > 0) return `--scenarios takes some of ${REVISION_SCENARIOS.join(',')}, not "${argv[i] ?? ''}"`;
      o.scenarios = names as ScenarioName[];
    } else if (arg.startsWith('-')) return `unknown option "${arg}"; ${REVISION_USAGE}`;
    else revs.push(arg);
  }
  if (revs.length === 0) return `a base revision is needed; ${REVISION_USAGE}`;
  if (revs.length > 2) return `at most two revisions, not ${revs.length}; ${REVISION_USAGE}`;
  if (o.same && revs.length === 2) return `--same compares the base with itself: give one revision, not two`;
  return { base: revs[0] as string, other: revs[1] ?? null, ...o };
}
