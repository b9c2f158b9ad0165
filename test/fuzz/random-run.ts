import { randomInt } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startFuzzResolvers, startFuzzTarget, type FuzzResolvers } from './fuzz-server';
import { fuzz, type FuzzRun } from './run-cases';

// `npm run fuzz:http`: the HTTP fuzzer from a random seed, bounded by count and by time (one thread
// for three quarters of the time, two worker threads for the rest). Not part of `npm test` (its name
// does not end in .test.js); CI runs it as a step of its own.
//   FUZZ_SEED=n     replay a seed (printed first, and again with FUZZ_PATH on a failure)
//   FUZZ_PATH=p     replay exactly the failing case of that seed
//   FUZZ_MODE=m     threads | workers | both (default)
//   FUZZ_SECONDS=s  time for the whole run (default 60); FUZZ_RUNS=n cases at most per mode (default 50000)
const env = process.env;
const seed = env['FUZZ_SEED'] ? Number(env['FUZZ_SEED']) : randomInt(2 ** 31 - 1);
const seconds = Number(env['FUZZ_SECONDS'] ?? 60);
const runs = Number(env['FUZZ_RUNS'] ?? 50_000);
const mode = env['FUZZ_MODE'] ?? 'both';
if (!Number.isInteger(seed) || !(seconds > 0) || !(runs > 0) || !['threads', 'workers', 'both'].includes(mode)) {
  throw new Error('FUZZ_SEED and FUZZ_RUNS must be whole numbers, FUZZ_SECONDS positive, FUZZ_MODE threads, workers or both');
}
console.log(`http fuzz: seed ${seed} (replay with FUZZ_SEED=${seed} npm run fuzz:http)`);

const test = suite<{ resolvers: FuzzResolvers }>('HTTP fuzzing from a random seed');

test.before(async (ctx) => {
  ctx.resolvers = await startFuzzResolvers();
});

test.after(async (ctx) => {
  await ctx.resolvers?.stop();
});

function fuzzWith(workers: number, share: number, label: string): void {
  test(`${label}: no dropped connection, no 500, JSON answers, the server alive`, async ({ resolvers }) => {
    const target = await startFuzzTarget(resolvers, workers);
    try {
      const replayEnv = `FUZZ_MODE=${workers > 1 ? 'workers' : 'threads'} `;
      const run: FuzzRun = { seed, numRuns: runs, timeLimitMs: seconds * 1000 * share, replayEnv, ...(env['FUZZ_PATH'] ? { path: env['FUZZ_PATH'] } : {}) };
      const started = Date.now();
      const outcome = await fuzz(target, run);
      console.log(`http fuzz (${label}): ${outcome.cases} cases in ${((Date.now() - started) / 1000).toFixed(1)} s; answers ${JSON.stringify(outcome.statuses)}`);
      assert.ok(outcome.ok, outcome.report);
      assert.ok(await target.alive(), 'the server is not up at the end');
    } finally {
      await target.stop();
    }
  });
}

if (mode !== 'workers') fuzzWith(1, mode === 'both' ? 0.75 : 1, 'one thread');
if (mode !== 'threads') fuzzWith(2, mode === 'both' ? 0.25 : 1, 'NETTOOLS_WORKERS=2');

test.run();
