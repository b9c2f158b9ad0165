// `npm run soak -- --minutes M [--out DIR]`: how long the load runs and where the results go.

export interface SoakOptions {
  minutes: number;
  warmupS: number;
  outDir: string | null; // null: bench/results/
}

export function parseSoakOptions(argv: readonly string[]): SoakOptions | string {
  let minutes = 10;
  let outDir: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.includes('=') ? (arg.split('=', 2) as [string, string]) : [arg, undefined];
    const value = inline ?? argv[++i];
    if (flag === '--minutes') {
      minutes = Number(value);
      if (!Number.isFinite(minutes) || minutes < 0.5 || minutes > 240) return `--minutes takes a number from 0.5 to 240, got "${value}"`;
    } else if (flag === '--out') {
      if (!value) return '--out needs a directory';
      outDir = value;
    } else {
      return `unknown argument "${arg}" (--minutes M, --out DIR)`;
    }
  }
  // A fifth of the run, between 30 s and 5 min: caches, JIT and the rate-limit table settle by then.
  const warmupS = Math.round(Math.min(300, Math.max(30, minutes * 60 * 0.2)));
  return { minutes, warmupS, outDir };
}
