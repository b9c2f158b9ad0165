import { DEFAULT_PLAN } from '../../ratelimit/plans';
import type { Maybe } from '../../util/maybe';
import type { Exchange } from '../exchange';
import type { HttpRequest } from '../uws';
import type { AdmitRefusal } from './admit';
import { authenticate, authorizationLines, NONE, type AuthRefusal, type Principal } from './authenticate';
import type { PipelineContext } from './context';
import { identifyClient } from './identify';

// identify -> authenticate, for every route that needs to know whose budget it is. Reads `req`: call
// it before anything asynchronous.
export function identifyCaller(ctx: PipelineContext, ex: Exchange, req: HttpRequest): { clientKey: string; who: Principal | AuthRefusal } {
  const clientKey = identifyClient(ex, req, ctx.config.trustProxy);
  const who = authenticate(clientKey, ctx.keys === null ? NONE : authorizationLines(req), ctx.keys);
  if ('kind' in who && who.kind === 'key') ex.keyId = who.keyId;
  return { clientKey, who };
}

// identify -> authenticate -> admit; null: admitted. With keys off every caller is its address under
// the default plan, and nothing is built to say so.
export function admitCaller(ctx: PipelineContext, ex: Exchange, req: HttpRequest): Maybe<AdmitRefusal | null> {
  if (ctx.keys === null) return ctx.admission.admit(ex, identifyClient(ex, req, ctx.config.trustProxy), DEFAULT_PLAN);
  const { clientKey, who } = identifyCaller(ctx, ex, req);
  if ('code' in who) return ctx.admission.refuseKey(ex, clientKey, who);
  return ctx.admission.admit(ex, who.key, who.plan);
}
