import fc from 'fast-check';
import { caseArbitrary, readApiShape, showCase, type Case } from './cases';
import type { FuzzTarget } from './fuzz-server';
import { requestIsLoopbackOnly } from './loopback-only';
import { send } from './send';
import { createJudge, type Judge } from './verdict';

export interface FuzzRun {
  seed: number;
  numRuns: number; // upper bound of cases
  timeLimitMs: number; // upper bound of time, shrinking included
  path?: string; // fast-check's counterexample path, to replay one failure exactly
  replayEnv?: string; // more variables the replay line needs, e.g. `FUZZ_MODE=workers `
}

export interface FuzzOutcome {
  ok: boolean;
  cases: number;
  statuses: Record<string, number>; // how many answers of each status, to see what was reached
  report: string; // empty when ok
}

// One case: sent, judged, and the server checked to be still up afterwards (a crash after the answer
// counts too). A dead server is started again, so the next case (or the shrinker's) meets a live one.
// `status` is the answer's status, or `dropped` / `hung`.
export async function checkCase(target: FuzzTarget, judge: Judge, c: Case): Promise<{ status: string; wrong: string[] }> {
  const reply = await send(target.port, c);
  const wrong = judge(c, reply);
  const survived = await target.alive();
  if (!survived) wrong.push(`the server died: ${target.crashes[target.crashes.length - 1]}`);
  const requestId = reply.kind === 'answer' && survived ? reply.headers['x-request-id'] : undefined;
  const errors = await target.takeErrors(typeof requestId === 'string' ? requestId : undefined);
  if (errors.length > 0) wrong.push(`the server logged errors: ${errors.join('\n').slice(0, 2000)}`);
  return { status: reply.kind === 'answer' ? String(reply.status) : reply.kind, wrong };
}

function failureReport(details: fc.RunDetails<[Case]>, run: FuzzRun): string {
  const c = details.counterexample?.[0];
  const replay = `FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath} ${run.replayEnv ?? ''}npm run fuzz:http`;
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  return [`seed ${run.seed}, failed after ${details.numRuns} cases (${details.numShrinks} shrinks)`, c ? showCase(c) : '(no case)', error, `replay: ${replay}`].join('\n');
}

export async function fuzz(target: FuzzTarget, run: FuzzRun): Promise<FuzzOutcome> {
  const judge = createJudge(target.doc);
  const cases = caseArbitrary(readApiShape(target.doc, target.resolverIds, target.apiKey));
  const statuses: Record<string, number> = {};
  let count = 0;
  // The time limit ends the run but not the case in flight: it is waited for before returning.
  let inFlight: Promise<unknown> = Promise.resolve();
  const property = fc.asyncProperty(cases, async (c) => {
    // Defence in depth: send() refuses such a case anyway; here it is skipped rather than failed.
    fc.pre(requestIsLoopbackOnly(c.path, c.body));
    count++;
    const checking = checkCase(target, judge, c);
    inFlight = checking.catch(() => undefined);
    const { status, wrong } = await checking;
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (wrong.length > 0) throw new Error(wrong.join('\n'));
  });
  const details = (await fc.check(property, {
    seed: run.seed,
    numRuns: run.numRuns,
    ...(run.path ? { path: run.path } : {}),
    plugins: [fc.interruptAfterTimeLimit(run.timeLimitMs)],
  })) as fc.RunDetails<[Case]>;
  await inFlight;
  const ok = !details.failed;
  return { ok, cases: count, statuses, report: ok ? '' : failureReport(details, run) };
}
