import { performance } from 'node:perf_hooks';
import { roundMicros } from '../../engines/icmp/stats';
import type { Pinger } from '../../engines/icmp/types';
import { createTargetCheck } from '../../policy/target-policy';
import type { TargetBudget } from '../../ratelimit/target-budget';
import type { CancelToken } from '../../util/cancel';
import { failed, succeeded, type Outcome, type ToolFailure } from '../outcome';
import { detailSource } from '../hop-details';
import { payAgain, TargetPath, type Target, type TargetTerms, measuredElsewhere, type Elsewhere } from '../target-path';
import type { TargetCheck, ToolDeps, ToolEvents, ToolSlot } from '../tool';
import { icmpToolSlot, type Measure } from '../icmp-tool-slot';
import { holdingTracePlace, traceBudget, traceRefusal, tracePlaces } from '../trace-budget';
import { runCycles, type CyclePayment } from './cycles';
import { watchMtr, type MtrMetrics } from './metrics';
import { AddressNames } from './names';
import { MtrPath } from './path-hops';
import type { MtrRequest, MtrResult } from './types';

export interface MtrToolOptions {
  checkTarget?: TargetCheck; // default: the operator's target policy
}

const ABORTED: ToolFailure = { code: 'aborted', detail: 'the caller went away before the mtr finished' };

export function openMtr(deps: ToolDeps, options: MtrToolOptions = {}): ToolSlot<MtrRequest, MtrResult> {
  if ('unavailable' in deps.icmp) return deps.icmp;
  const { pinger } = deps.icmp;
  const metrics = deps.registry === null ? null : watchMtr(deps.registry);
  const { measure, elsewhere } = createMeasure(deps, pinger, options.checkTarget ?? createTargetCheck({ allowPrivateTargets: deps.config.allowPrivateTargets }), metrics);
  return icmpToolSlot(pinger, measure, metrics, elsewhere);
}

function createMeasure(deps: ToolDeps, pinger: Pinger, checkTarget: TargetCheck, metrics: MtrMetrics | null): { measure: Measure<MtrRequest, MtrResult>; elsewhere: Elsewhere<MtrRequest, MtrResult> } {
  const { config } = deps;
  const details = detailSource(deps);
  const path = new TargetPath(deps, pinger.socketKinds, checkTarget);
  const terms = mtrTerms(traceBudget(deps));
  // An mtr is a trace that goes on: it holds one place among the traces in flight for its whole run.
  // Elsewhere, as here: a unit of the destination's trace budget per started ten cycles.
  return { measure: holdingTracePlace(tracePlaces(deps), mtrOnce), elsewhere: measuredElsewhere(path, terms, () => 1, () => 1) };

  async function mtrOnce(request: MtrRequest, cancel: CancelToken, events: ToolEvents | undefined): Promise<Outcome<MtrResult>> {
    const tooLong = events === undefined ? null : beyondStreamLimit(request, config.streamMaxSeconds);
    const reached = await path.reach(request, cancel, events, terms, 1, tooLong);
    if (!reached.ok) return failed(reached.failure);
    const { target } = reached;
    const names = new AddressNames(details(request, cancel));
    const hops = new MtrPath(request.maxHops, (address) => names.ask(address));
    const pay = events === undefined ? NOTHING_TO_PAY : payCycles(events, terms, target);
    const onCycle = (cycle: number): void => {
      metrics?.cycle();
      events?.item('cycle', { cycle, destinationReached: hops.destinationReached(), hops: hops.hops(names.detailsOf) });
    };
    const options = { address: target.address, cycles: request.cycles, intervalMs: request.intervalMs, timeoutMs: request.timeoutMs };
    const ran = await runCycles(pinger, options, hops, cancel, pay, ABORTED, onCycle);
    if (!ran.ok) return failed(ran.failure);
    await names.settled();
    if (cancel.aborted) return failed(ABORTED);
    const durationMs = roundMicros(performance.now() - target.t0);
    return succeeded({ host: request.host, address: target.shown, ipVersion: target.address.family, destinationReached: hops.destinationReached(), cycles: hops.cycles, hops: hops.hops(names.detailsOf), durationMs, startedAt: target.startedAt });
  }
}

// mtr's terms on the target path: a unit of the destination's trace budget per ten cycles, the first
// paid at admission.
function mtrTerms(budget: TargetBudget): TargetTerms<MtrRequest> {
  return {
    budget,
    refusal: traceRefusal,
    aborted: ABORTED,
    settings: (request) => ({ cycles: request.cycles, intervalMs: request.intervalMs, maxHops: request.maxHops, timeoutMs: request.timeoutMs }),
  };
}

// A JSON mtr runs at most ten cycles: the request's admission paid for all of them.
const NOTHING_TO_PAY: CyclePayment = (_cycle, done) => done(null);

// Each later ten cycles: one token of the caller's bucket and one unit of the destination's trace budget.
function payCycles(events: ToolEvents, terms: TargetTerms<MtrRequest>, target: Target): CyclePayment {
  return (_cycle, done) => payAgain(events, terms, target.address, 1, done);
}

// How long a streamed mtr may run in all, at the least: its last cycle's start plus one timeout.
function beyondStreamLimit(request: MtrRequest, maxSeconds: number): ToolFailure | null {
  const ms = (request.cycles - 1) * request.intervalMs + request.timeoutMs;
  if (ms <= maxSeconds * 1000) return null;
  const message = `(cycles - 1) x intervalMs + timeoutMs must be <= ${maxSeconds * 1000} ms on this server (NETTOOLS_STREAM_MAX_SECONDS)`;
  return { code: 'invalid-field', detail: `the stream would run ${ms} ms, longer than this server allows`, fields: [{ path: ['cycles'], message }] };
}
