import { performance } from 'node:perf_hooks';
import { IcmpError } from '../../engines/icmp/errors';
import { roundMicros } from '../../engines/icmp/stats';
import type { Pinger, TraceOptions } from '../../engines/icmp/types';
import type { Address } from '../../net/address';
import { createTargetCheck } from '../../policy/target-policy';
import { SharedCap, sharedCapMemory } from '../../ratelimit/shared-cap';
import { TargetBudget } from '../../ratelimit/target-budget';
import type { CancelToken } from '../../util/cancel';
import { engineSession } from '../engine-session';
import { engineFailure } from '../icmp-engine';
import { failed, succeeded, type Outcome, type ToolFailure } from '../outcome';
import { TargetPath, type RefusedReservation, type TargetTerms } from '../target-path';
import type { TargetCheck, ToolDeps, ToolEvents, ToolSlot } from '../tool';
import { HopAssembler } from './hops';
import { watchTracer, type TraceMetrics } from './metrics';
import type { TraceHop, TracerouteRequest, TracerouteResult } from './types';
import { HopNames } from './hop-names';
import { lookUpName } from '../reverse-name';

export interface TracerouteToolOptions {
  checkTarget?: TargetCheck; // default: the operator's target policy
}

// Probes leave this far apart: a whole path (32 TTLs x 3) within about 5 ms, never one burst that a
// router's ICMP rate limit or our receive queue would cut short.
const PACE_US = 50;
// Payload bytes per probe: the cookie and a little more, as small as Debian's traceroute -I sends.
const PROBE_SIZE = 32;

const ABORTED: ToolFailure = { code: 'aborted', detail: 'the caller went away before the trace finished' };

export function openTraceroute(deps: ToolDeps, options: TracerouteToolOptions = {}): ToolSlot<TracerouteRequest, TracerouteResult> {
  if ('unavailable' in deps.icmp) return deps.icmp;
  const { pinger } = deps.icmp;
  const metrics = deps.registry === null ? null : watchTracer(deps.registry, () => pinger.stats());
  const measure = createMeasure(deps, pinger, options.checkTarget ?? createTargetCheck({ allowPrivateTargets: deps.config.allowPrivateTargets }), metrics);
  const { v4, v6 } = pinger.socketKinds;
  return {
    run: async (request, cancel, events) => {
      const outcome = await measure(request, cancel, events);
      metrics?.finished(outcome);
      return outcome;
    },
    info: { socketKinds: { v4, v6 } },
    close: () => undefined, // the engine is the worker's: openTools closes it after every tool
  };
}

type Measure = (request: TracerouteRequest, cancel: CancelToken, events?: ToolEvents) => Promise<Outcome<TracerouteResult>>;

function createMeasure(deps: ToolDeps, pinger: Pinger, checkTarget: TargetCheck, metrics: TraceMetrics | null): Measure {
  const { config } = deps;
  const client = 'upstream' in deps.dns ? deps.dns.upstream : null;
  const path = new TargetPath(deps, pinger.socketKinds, checkTarget);
  // Across all clients, workers and (with Redis) instances, in the store of the echo budgets, keyed apart.
  const terms = traceTerms(new TargetBudget({ limit: config.targetTracesPerMinute, windowMs: 60_000, keyPrefix: 'trace:', ...(deps.targetStore ? { store: deps.targetStore } : {}) }));
  // Traces in flight in the whole process (NETTOOLS_MAX_TRACES_IN_FLIGHT), every worker thread's
  // together: each holds up to 96 sequences of its engine's socket while it runs.
  const places = deps.traceCap ?? new SharedCap(sharedCapMemory(), config.maxTracesInFlight);
  // A place is taken before the first await: traces that arrive together cannot all pass a check of places free.
  return async (request, cancel, events) => {
    if (!places.take()) return failed(busy(places.limit));
    try {
      return await traceOnce(request, cancel, events);
    } finally {
      places.give();
    }
  };

  async function traceOnce(request: TracerouteRequest, cancel: CancelToken, events: ToolEvents | undefined): Promise<Outcome<TracerouteResult>> {
    const reached = await path.reach(request, cancel, events, terms, 1);
    if (!reached.ok) return failed(reached.failure);
    const { target } = reached;
    const options: TraceOptions = { address: target.address, maxHops: request.maxHops, probesPerHop: request.probesPerHop, timeoutMs: request.timeoutMs, paceUs: PACE_US, size: PROBE_SIZE };
    const lookUp = request.resolveNames && client !== null ? (hop: Address) => lookUpName(client, hop, { client, resolvers: config.resolvers, timeoutMs: request.timeoutMs, cancel }) : null;
    const names = new HopNames(lookUp, events && ((hop) => events.item('hop', hop)));
    const traced = await trace(pinger, options, cancel, (hop) => names.add(hop));
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

type Traced = { ok: true; hops: HopAssembler } | { ok: false; error: IcmpError };

// The probes of one trace, until the path is complete (then the rest is stopped) or every probe is
// decided; stopped when the caller goes away. `onHop`: each hop in TTL order once it is decided.
function trace(pinger: Pinger, options: TraceOptions, cancel: CancelToken, onHop: (hop: TraceHop) => void): Promise<Traced> {
  const hops = new HopAssembler(options.maxHops, options.probesPerHop, options.address);
  return engineSession<Traced>(cancel, callerGone, (end) =>
    pinger.trace(
      options,
      (outcome) => end(outcome.ok ? { ok: true, hops } : outcome),
      (probe) => {
        hops.add(probe);
        for (const hop of hops.newlyDecided()) onHop(hop);
        if (hops.complete()) end({ ok: true, hops });
      },
    ),
  );
}

function callerGone(): Traced {
  return { ok: false, error: new IcmpError('aborted', 'the caller went away') };
}

function traceRefusal(reservation: RefusedReservation, address: string): ToolFailure {
  const retry = reservation.reason === 'budget-spent' ? reservation.retryAfterSeconds : 60;
  return { code: 'target-rate-limited', detail: `${address} already gets ${reservation.limit} traces a minute from this server (its per-target trace budget); retry after ${retry} s`, retryAfterSeconds: retry };
}

function busy(limit: number): ToolFailure {
  return { code: 'engine-busy', detail: `${limit} traces are in flight on this server; try again shortly`, retryAfterSeconds: 1 };
}

