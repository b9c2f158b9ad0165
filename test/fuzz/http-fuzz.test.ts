import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { showCase } from './cases';
import { startFuzzResolvers, startFuzzTarget, type FuzzResolvers, type FuzzTarget } from './fuzz-server';
import { requestIsLoopbackOnly } from './loopback-only';
import { REGRESSIONS } from './regressions';
import { checkCase, fuzz } from './run-cases';
import { send } from './send';
import { createJudge, type Judge } from './verdict';

// The bounded, fixed-seed part of the HTTP fuzzer, in `npm test`: every request it ever found to break
// the server, by name, then a few hundred generated ones from a fixed seed (one thread, then two worker
// threads). `npm run fuzz:http` runs the same generator from a random seed for longer.
type Ctx = { resolvers: FuzzResolvers; target: FuzzTarget; judge: Judge };

const SEED = 20261125;

const gate = suite('HTTP fuzzing: nothing outside loopback');

gate('a request naming an address outside loopback anywhere is never sent', () => {
  const outside = ['8.8.8.8', '[2001:4860::8888]', '2001:4860::8888', '::ffff:8.8.8.8', '192.168.1.1', '10.0.0.1', '::'];
  for (const host of outside) {
    for (const body of [`{"host":${JSON.stringify(host)}}`, `\ufeff{"host":${JSON.stringify(host)}}`, `{"host":"127.0.0.1","host":${JSON.stringify(host)}}`, `{"x":[{"y":${JSON.stringify(host)}}]}`]) {
      assert.not.ok(requestIsLoopbackOnly('/api/tools/ping', Buffer.from(body)), body);
    }
    assert.not.ok(requestIsLoopbackOnly(`/probe?module=icmp&target=${encodeURIComponent(host)}`, undefined), host);
    assert.throws(() => send(1, { method: 'POST', path: '/api/tools/ping', headers: {}, body: Buffer.from(`{"host":"${host}"}`) }));
  }
  for (const host of ['127.0.0.1', '127.9.8.7', '::1', '[::1]', '::ffff:127.0.0.1', 'fuzz.test', '0x08080808', '８.８.８.８', '8.8.8.8.']) {
    assert.ok(requestIsLoopbackOnly(`/probe?target=${encodeURIComponent(host)}`, Buffer.from(`{"host":${JSON.stringify(host)}}`)), host);
  }
});

gate.run();

const found = suite<Ctx>('HTTP fuzzing: every case found so far');

found.before(async (ctx) => {
  ctx.resolvers = await startFuzzResolvers();
  ctx.target = await startFuzzTarget(ctx.resolvers);
  ctx.judge = createJudge(ctx.target.doc);
});

found.after(async (ctx) => {
  await ctx.target?.stop();
  await ctx.resolvers?.stop();
});

for (const r of REGRESSIONS) {
  found(r.name, async ({ target, judge }) => {
    const { status, wrong } = await checkCase(target, judge, r.case);
    assert.ok(wrong.length === 0, `${showCase(r.case)}\n${wrong.join('\n')}`);
    if (r.status !== undefined) assert.is(status, String(r.status), showCase(r.case));
  });
}

found('a fixed-seed run of 600 generated requests: answered, never a 500, JSON, the server alive', async ({ target }) => {
  const outcome = await fuzz(target, { seed: SEED, numRuns: 600, timeLimitMs: 20_000, replayEnv: 'FUZZ_MODE=threads ' });
  assert.ok(outcome.ok, outcome.report);
  assert.ok(await target.alive(), 'the server is not up at the end');
  // The generator reaches past validation: tool answers and refusals by policy, not only 400s.
  assert.ok((outcome.statuses['200'] ?? 0) > 0 && (outcome.statuses['422'] ?? 0) > 0, JSON.stringify(outcome.statuses));
});

found.run();

const workers = suite<Ctx>('HTTP fuzzing: two worker threads');

workers.before(async (ctx) => {
  ctx.resolvers = await startFuzzResolvers();
  ctx.target = await startFuzzTarget(ctx.resolvers, 2);
  ctx.judge = createJudge(ctx.target.doc);
});

workers.after(async (ctx) => {
  await ctx.target?.stop();
  await ctx.resolvers?.stop();
});

workers('the crash found first is a 400 in worker mode too', async ({ target, judge }) => {
  const first = REGRESSIONS[0]!;
  const { status, wrong } = await checkCase(target, judge, first.case);
  assert.ok(wrong.length === 0, `${showCase(first.case)}\n${wrong.join('\n')}`);
  assert.is(status, '400');
});

workers('a fixed-seed run of 200 generated requests with NETTOOLS_WORKERS=2', async ({ target }) => {
  const outcome = await fuzz(target, { seed: SEED + 1, numRuns: 200, timeLimitMs: 10_000, replayEnv: 'FUZZ_MODE=workers ' });
  assert.ok(outcome.ok, outcome.report);
  assert.ok(await target.alive(), 'the server is not up at the end');
});

workers.run();
