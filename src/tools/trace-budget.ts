// What a trace costs, for traceroute and mtr alike: one unit of its destination's trace budget
// (NETTOOLS_TARGET_TRACES_PER_MINUTE) and, while it runs, one place among the traces in flight
// (NETTOOLS_MAX_TRACES_IN_FLIGHT). Both tools take them from the same store and count, so a destination's
// budget holds whichever tool asks.
import { SharedCap, sharedCapMemory } from '../ratelimit/shared-cap';
import { TargetBudget } from '../ratelimit/target-budget';
import type { Measure } from './icmp-tool-slot';
import { failed, type ToolFailure } from './outcome';
import type { RefusedReservation } from './target-path';
import type { ToolDeps } from './tool';

// Across all clients, workers and (with Redis) instances, in the store of the echo budgets, keyed apart.
export function traceBudget(deps: ToolDeps): TargetBudget {
  return new TargetBudget({ limit: deps.config.targetTracesPerMinute, windowMs: 60_000, keyPrefix: 'trace:', ...(deps.targetStore ? { store: deps.targetStore } : {}) });
}

// Traces in flight in the whole process, every worker thread's together: each holds up to 96 sequences
// of its engine's socket while it runs.
export function tracePlaces(deps: ToolDeps): SharedCap {
  return deps.traceCap ?? new SharedCap(sharedCapMemory(), deps.config.maxTracesInFlight);
}

// `measure` run holding one place among the traces in flight, or refused engine-busy when none is free.
// The place is taken before the first await: traces that arrive together cannot all pass a check of
// places free.
export function holdingTracePlace<Req, Res>(places: SharedCap, measure: Measure<Req, Res>): Measure<Req, Res> {
  return async (request, cancel, events) => {
    if (!places.take()) return failed(tracesBusy(places.limit));
    try {
      return await measure(request, cancel, events);
    } finally {
      places.give();
    }
  };
}

export function traceRefusal(reservation: RefusedReservation, address: string): ToolFailure {
  const retry = reservation.reason === 'budget-spent' ? reservation.retryAfterSeconds : 60;
  return { code: 'target-rate-limited', detail: `${address} already gets ${reservation.limit} traces a minute from this server (its per-target trace budget); retry after ${retry} s`, retryAfterSeconds: retry };
}

export function tracesBusy(limit: number): ToolFailure {
  return { code: 'engine-busy', detail: `${limit} traces are in flight on this server; try again shortly`, retryAfterSeconds: 1 };
}
