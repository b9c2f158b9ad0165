import type { Logger } from '../../log';
import type { Outcome } from '../../tools/outcome';
import type { ToolEvents, ToolSlot } from '../../tools/tool';
import type { CancelToken } from '../../util/cancel';
import type { Exchange } from '../exchange';
import { later, type Flow, type Stage } from './runner';

// Runs a tool for a validated request, aborting it when the client goes away. A tool the server cannot
// run, or one that throws (a bug), is an outcome too: the caller answers every outcome alike.
// `events`: a streamed request's hook (see ToolEvents). `cancel`: the exchange (it aborts when the client
// goes away), unless the caller has one that also aborts for reasons of its own.
export async function runTool<Req, Res>(ex: Exchange, slot: ToolSlot<Req, Res>, request: Req, log: Logger, events?: ToolEvents, cancel: CancelToken = ex): Promise<Outcome<Res>> {
  if ('unavailable' in slot) return { ok: false, failure: { code: 'engine-unavailable', detail: slot.unavailable } };
  try {
    return await slot.run(request, cancel, events);
  } catch (err) {
    log.log('error', 'tool failed', { path: ex.path, error: (err as Error).stack ?? String(err) });
    return { ok: false, failure: { code: 'internal-error', detail: 'the measurement failed unexpectedly; this is a bug' } };
  }
}

export interface RunFlow extends Flow {
  readonly ctx: { readonly log: Logger };
  readonly slot: ToolSlot<unknown, unknown>;
  request: unknown;
  outcome: Outcome<unknown> | null;
}

export const RUN: Stage<RunFlow> = {
  name: 'run',
  run(r, next) {
    later(r.ex, runTool(r.ex, r.slot, r.request, r.ctx.log), (outcome) => {
      r.outcome = outcome;
      next();
    });
  },
};
