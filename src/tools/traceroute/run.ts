import { performance } from 'node:perf_hooks';
import { roundMicros } from '../../engines/icmp/stats';
import type { Pinger, TraceOptions } from '../../engines/icmp/types';
import { createTargetCheck } from '../../policy/target-policy';
import type { TargetBudget } from '../../ratelimit/target-budget';
import type { CancelToken } from '../../util/cancel';
import { engineFailure } from '../icmp-engine';
import { failed, succeeded, type Outcome, type ToolFailure } from '../outcome';
import { TargetPath, type TargetTerms, measuredElsewhere, type Elsewhere } from '../target-path';
import { icmpToolSlot, type Measure } from '../icmp-tool-slot';
import { holdingTracePlace, traceBudget, traceRefusal, tracePlaces } from '../trace-budget';
import { PACE_US, PROBE_SIZE, traceSession } from '../trace-session';
import type { TargetCheck, ToolDeps, ToolEvents, ToolSlot } from '../tool';
import { watchTracer } from './metrics';
import type { TracerouteRequest, TracerouteResult } from './types';
import { HopNames } from './hop-names';
import { detailSource } from '../hop-details';

export interface TracerouteToolOptions {
  checkTarget?: TargetCheck; // default: the operator's target policy
}

const ABORTED: ToolFailure = { code: 'aborted', detail: 'the caller went away before the trace finished' };

export function openTraceroute(deps: ToolDeps, options: TracerouteToolOptions = {}): ToolSlot<TracerouteRequest, TracerouteResult> {
  if ('unavailable' in deps.icmp) return deps.icmp;
  const { pinger } = deps.icmp;
  const metrics = deps.registry === null ? null : watchTracer(deps.registry, () => pinger.stats());
  const { measure, elsewhere } = createMeasure(deps, pinger, options.checkTarget ?? createTargetCheck({ allowPrivateTargets: deps.config.allowPrivateTargets }));
  return icmpToolSlot(pinger, measure, metrics, elsewhere);
}

function createMeasure(deps: ToolDeps, pinger: Pinger, checkTarget: TargetCheck): { measure: Measure<TracerouteRequest, TracerouteResult>; elsewhere: Elsewhere<TracerouteRequest, TracerouteResult> } {
  const { config } = deps;
  const details = detailSource(deps);
  const path = new TargetPath(deps, pinger.socketKinds, checkTarget);
  const terms = traceTerms(traceBudget(deps));
  // Elsewhere, as here: one trace of the destination's trace budget.
  return { measure: holdingTracePlace(tracePlaces(deps), traceOnce), elsewhere: measuredElsewhere(path, terms, () => 1, () => 1) };

  async function traceOnce(request: TracerouteRequest, cancel: CancelToken, events: ToolEvents | undefined): Promise<Outcome<TracerouteResult>> {
    const reached = await path.reach(request, cancel, events, terms, 1);
    if (!reached.ok) return failed(reached.failure);
    const { target } = reached;
    const options: TraceOptions = { address: target.address, maxHops: request.maxHops, probesPerHop: request.probesPerHop, timeoutMs: request.timeoutMs, paceUs: PACE_US, size: PROBE_SIZE };
    const names = new HopNames(details(request, cancel), events && ((hop) => events.item('hop', hop)));
    const traced = await traceSession(pinger, options, cancel, (hop) => names.add(hop));
    if (!traced.ok) return failed(engineFailure(traced.error, ABORTED));
    const hops = await names.withNames(traced.hops.hops());
    if (cancel.aborted) return failed(ABORTED);
    const durationMs = roundMicros(performance.now() - target.t0);
    return succeeded({ host: request.host, address: target.shown, ipVersion: target.address.family, destinationReached: traced.hops.destinationReached(), hops, durationMs, startedAt: target.startedAt });
  }
}

// Traceroute's terms on the target path: one trace of the destination's trace budget.
function traceTerms(budget: TargetBudget): TargetTerms<TracerouteRequest> {
  return {
    budget,
    refusal: traceRefusal,
    aborted: ABORTED,
    settings: (request) => ({ maxHops: request.maxHops, probesPerHop: request.probesPerHop, timeoutMs: request.timeoutMs }),
  };
}
