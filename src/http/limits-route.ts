import type { Exchange } from './exchange';
import { IDENTIFY, type Caller } from './pipeline/caller';
import type { PipelineContext } from './pipeline/context';
import { guarded, runStages, type Stage } from './pipeline/runner';
import { refuse } from './refusal';
import type { Route } from './route';
import type { HttpRequest } from './uws';

interface LimitsFlow {
  readonly ex: Exchange;
  readonly ctx: PipelineContext;
  req: HttpRequest | null;
  caller: Caller | null;
}

// The caller's plan and budget now, spending nothing. A bad key is refused as everywhere else (and
// costs its address a token, as everywhere else).
const ANSWER_BUDGET: Stage<LimitsFlow> = {
  name: 'respond',
  run({ ex, ctx, caller }) {
    const { key, plan, badKey } = caller as Caller;
    if (badKey !== null) return ctx.admission.refuseKey(ex, key, badKey, guarded(ex, (refusal) => refuse(ex, refusal)));
    ctx.admission.peek(
      ex,
      { kind: 'anonymous', key, plan },
      guarded(ex, (p) => {
        if ('code' in p) return refuse(ex, p);
        const { decision, inFlightLimit } = p;
        ex.json(200, { plan, limit: decision.limit, windowSeconds: Math.max(1, Math.ceil(decision.windowMs / 1000)), remaining: decision.remaining, resetSeconds: decision.resetSeconds, inFlightLimit });
      }),
    );
  },
};

// GET /api/limits, in order.
export const LIMITS_STAGES: ReadonlyArray<Stage<LimitsFlow>> = [IDENTIFY, ANSWER_BUDGET];

export function limitsRoute(ctx: PipelineContext): Route {
  return {
    allow: 'GET, HEAD',
    methods: {
      GET: (ex, req) => {
        const r: LimitsFlow = { ex, ctx, req, caller: null };
        runStages(LIMITS_STAGES, r);
        r.req = null;
      },
    },
  };
}
