import { then } from '../util/maybe';
import { unreachable } from './pipeline/admit';
import { identifyCaller } from './pipeline/caller';
import type { PipelineContext } from './pipeline/context';
import { guardLater } from './guard';
import { refuse } from './refusal';
import type { Route } from './route';

// GET /api/limits: the caller's plan and budget right now (its key's, or its address's), spending
// nothing. A bad key is refused as everywhere else.
export function limitsRoute(ctx: PipelineContext): Route {
  return {
    allow: 'GET, HEAD',
    methods: {
      GET: (ex, req) => {
        const { clientKey, who } = identifyCaller(ctx, ex, req);
        if ('code' in who) return guardLater(ex, then(ctx.admission.refuseKey(ex, clientKey, who), (refusal) => refuse(ex, refusal)));
        const answered = then(ctx.admission.peek(ex, who), ({ decision, inFlightLimit }) =>
          ex.json(200, {
            plan: who.plan,
            limit: decision.limit,
            windowSeconds: Math.max(1, Math.ceil(decision.windowMs / 1000)),
            remaining: decision.remaining,
            resetSeconds: decision.resetSeconds,
            inFlightLimit,
          }),
        );
        if (answered instanceof Promise) guardLater(ex, answered.catch((err: unknown) => refuse(ex, unreachable(err))));
      },
    },
  };
}
