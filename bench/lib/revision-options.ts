import type { ScenarioName } from './types';

// `npm run bench:revisions -- <base-rev> [<other-rev>] [--same] [--rounds N] [--run-s S] [--connections C]
// [--scenarios a,b] [--limit X] [--instructions [--warmup-requests W] [--requests N1,N2]]`. Every duration
// here bounds the run.

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
  // Instructions per request under callgrind instead of CPU time under wrk (bench/lib/instruction-count.ts).
  instructions: boolean;
  // Sent before counting, with callgrind's instrumentation off: the JIT's warm-up.
  warmupRequests: number;
  // Counted in two segments of N1 and N2 requests: per request = (Ir(N2) - Ir(N1)) / (N2 - N1).
  requests: [number, number];
}

export const REVISION_USAGE = 'usage: npm run bench:revisions -- <base-rev> [<other-rev> | --same] [--rounds N] [--run-s S] [--connections C] [--scenarios validation,dns,dns-hot,ping] [--limit 1.02] [--instructions [--warmup-requests 10000] [--requests 2000,6000]]';

function positive(name: string, text: string | undefined, integer: boolean): number | string {
  const n = Number(text);
  if (text === undefined || !Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) return `${name} needs a positive ${integer ? 'whole ' : ''}number, not "${text ?? ''}"`;
  return n;
}

// Two request counts, the second larger: the difference of their instruction counts is what requests cost.
function segments(text: string | undefined): [number, number] | string {
  const parts = (text ?? '').split(',').map(Number);
  const [n1, n2] = parts;
  if (parts.length !== 2 || !parts.every((n) => Number.isInteger(n) && n > 0) || (n1 as number) >= (n2 as number)) return `--requests takes two whole counts N1,N2 with N1 < N2, not "${text ?? ''}"`;
  return [n1 as number, n2 as number];
}

export function parseRevisionOptions(argv: readonly string[]): RevisionOptions | string {
  const revs: string[] = [];
  const o = { same: false, rounds: 9, runS: 2, warmupS: 2, connections: 64, scenarios: [...REVISION_SCENARIOS], limit: 1.02, instructions: false, warmupRequests: 10000, requests: [2000, 6000] as [number, number] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const numeric = { '--rounds': 'rounds', '--run-s': 'runS', '--connections': 'connections', '--limit': 'limit', '--warmup-requests': 'warmupRequests' } as const;
    if (arg === '--same') o.same = true;
    else if (arg === '--instructions') o.instructions = true;
    else if (arg === '--requests') {
      const counts = segments(argv[++i]);
      if (typeof counts === 'string') return counts;
      o.requests = counts;
    } else if (arg in numeric) {
      const key = numeric[arg as keyof typeof numeric];
      const n = positive(arg, argv[++i], key !== 'runS' && key !== 'limit');
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
