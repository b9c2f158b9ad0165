import type { LocatedRequest, Places } from '../../locations/measure-at';
import type { Logger } from '../../log';
import type { Outcome } from '../../tools/outcome';
import type { ToolEvents, ToolSlot } from '../../tools/tool';
import type { CancelToken } from '../../util/cancel';
import { runLocated } from './run-located';
import { later, type Flow, type Stage } from './runner';

// Runs a tool for a validated request, aborting it when the client goes away. A tool the server cannot
// run is an outcome too: the caller answers every outcome alike. One that throws or rejects (a bug, also
// from a continuation it scheduled itself) is not: the rejection goes to the runner's guard (`later`),
// the exchange's one fault funnel. `events`: a streamed request's hook (see ToolEvents). `cancel`: the
// exchange (it aborts when the client goes away), unless the caller has one that also aborts for reasons
// of its own.
export async function runTool<Req, Res>(slot: ToolSlot<Req, Res>, request: Req, cancel: CancelToken, events?: ToolEvents): Promise<Outcome<Res>> {
  if ('unavailable' in slot) return { ok: false, failure: { code: 'engine-unavailable', detail: slot.unavailable } };
  return slot.run(request, cancel, events);
}

export interface RunFlow extends Flow {
  readonly ctx: { readonly log: Logger; readonly places: Places };
  readonly slot: ToolSlot<unknown, unknown>;
  readonly tool: string;
  request: unknown;
  located: LocatedRequest | null; // with `locations`: where, and the request as each place takes it
  outcome: Outcome<unknown> | null;
}

export const RUN: Stage<RunFlow> = {
  name: 'run',
  run(r, next) {
    const run = r.located === null ? runTool(r.slot, r.request, r.ex) : runLocated(r.ctx.places, r.tool, r.located, r.ex);
    later(r.ex, run, (outcome) => {
      r.outcome = outcome;
      next();
    });
  },
};
