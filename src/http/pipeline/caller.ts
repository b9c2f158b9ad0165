import { DEFAULT_PLAN } from '../../ratelimit/plans';
import type { Exchange } from '../exchange';
import type { StageRefusal } from '../refusal';
import { refuse } from '../refusal';
import type { HttpRequest } from '../uws';
import { authenticate, authorizationLines, NONE, type AuthRefusal, type Principal } from './authenticate';
import type { PipelineContext } from './context';
import { identifyClient } from './identify';
import { guarded, type Flow, type Stage } from './runner';

// identify -> authenticate, for every route that needs to know whose budget it is. Reads `req`: call
// it before anything asynchronous.
export function identifyCaller(ctx: PipelineContext, ex: Exchange, req: HttpRequest): { clientKey: string; who: Principal | AuthRefusal } {
  const clientKey = identifyClient(ex, req, ctx.config.trustProxy);
  const who = authenticate(clientKey, ctx.keys === null ? NONE : authorizationLines(req), ctx.keys);
  if ('kind' in who && who.kind === 'key') ex.keyId = who.keyId;
  return { clientKey, who };
}

// Whose budget a request spends, as the identify stage found it: a key and its plan, or a bad key
// (which costs its sender's address a token before it is refused).
export type Caller = { key: string; plan: string; badKey: null } | { key: string; plan: string; badKey: AuthRefusal };

// What the caller stages need of a route's request record.
export interface CallerFlow extends Flow {
  readonly ctx: PipelineContext;
  req: HttpRequest | null; // uWS's request: valid only while its handler runs, so read by the first stages
  caller: Caller | null;
}

// With keys off every caller is its address under the default plan, and nothing is built to say so.
function identify(r: CallerFlow): Caller {
  const { ctx, ex } = r;
  const req = r.req as HttpRequest;
  if (ctx.keys === null) return { key: identifyClient(ex, req, ctx.config.trustProxy), plan: DEFAULT_PLAN, badKey: null };
  const { clientKey, who } = identifyCaller(ctx, ex, req);
  return 'code' in who ? { key: clientKey, plan: DEFAULT_PLAN, badKey: who } : { key: who.key, plan: who.plan, badKey: null };
}

export const IDENTIFY: Stage<CallerFlow> = {
  name: 'identify',
  run(r, next) {
    r.caller = identify(r);
    next();
  },
};

// The concurrency caps and the caller's token bucket (admit.ts); a shared store answers later.
export const ADMIT: Stage<CallerFlow> = {
  name: 'admit',
  run(r, next) {
    const { ex, ctx } = r;
    const caller = r.caller as Caller;
    const answered = guarded(ex, (refusal: StageRefusal | null) => (refusal === null ? next() : refuse(ex, refusal)));
    if (caller.badKey !== null) ctx.admission.refuseKey(ex, caller.key, caller.badKey, answered);
    else ctx.admission.admit(ex, caller.key, caller.plan, answered);
  },
};
