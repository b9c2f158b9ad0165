// What one run measures and for how long. Every duration here bounds the run.

export interface BenchOptions {
  mode: 'quick' | 'full';
  connections: number[];
  durationS: number;
  warmupS: number;
  engineDurationS: number;
  // The native DNS engine and dnsperf take turns this many times, engineRoundS each; the target reads the
  // median of the rounds' ratios.
  engineRounds: number;
  engineRoundS: number;
  dnsInFlight: number;
  icmpInFlight: number;
  rttSamples: number;
  floodCount: number;
  resolvers: number;
  // Alternating runs of each pair (PAIRS in scenarios.ts): this many rounds of one pairRunS run per server.
  pairRounds: number;
  pairRunS: number;
  // The whole run is aborted (everything stopped) after this long.
  deadlineS: number;
}

export function parseOptions(argv: readonly string[]): BenchOptions | string {
  let quick = false;
  for (const arg of argv) {
    if (arg === '--quick') quick = true;
    else return `unknown argument "${arg}" (only --quick is known)`;
  }
  return quick
    ? { mode: 'quick', connections: [1, 64], durationS: 3, warmupS: 1, engineDurationS: 3, engineRounds: 1, engineRoundS: 3, dnsInFlight: 100, icmpInFlight: 32, rttSamples: 20, floodCount: 5000, resolvers: 2, pairRounds: 3, pairRunS: 2, deadlineS: 600 }
    : { mode: 'full', connections: [1, 16, 64, 256], durationS: 10, warmupS: 3, engineDurationS: 5, engineRounds: 9, engineRoundS: 3, dnsInFlight: 100, icmpInFlight: 32, rttSamples: 100, floodCount: 20000, resolvers: 2, pairRounds: 15, pairRunS: 2, deadlineS: 1800 };
}

// `--name N` from the command line of a bench that takes a few counts, or the fallback; a count must be an
// integer of at least `min` (1 unless said).
export function countOption(argv: readonly string[], name: string, fallback: number, min = 1): number {
  const at = argv.indexOf(name);
  const value = at > 0 ? Number(argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} wants an integer of at least ${min}`);
  return value;
}
