import type { OpenTool } from '../tools/registry';
import { addCorsHeaders, answerPreflight } from './cors';
import type { Exchange } from './exchange';
import type { AdmitRefusal } from './pipeline/admit';
import { admitCaller } from './pipeline/caller';
import type { PipelineContext } from './pipeline/context';
import { parseJsonObject } from './pipeline/parse';
import { checkBodyHeaders, readBody, type BodyOutcome } from './pipeline/read-body';
import { respond } from './pipeline/respond';
import { runTool } from './pipeline/run-tool';
import { validateRequest } from './pipeline/validate';
import { guardLater } from './guard';
import { refuse, type StageRefusal } from './refusal';
import type { Route } from './route';
import type { HttpRequest } from './uws';

// POST <tool path>: identify -> authenticate -> admit (caller.ts) -> read the body -> parse -> validate -> run -> respond.
export function toolRoute(ctx: PipelineContext, open: OpenTool): Route {
  return {
    allow: 'POST, OPTIONS',
    methods: {
      POST: (ex, req) => serveTool(ctx, open, ex, req),
      OPTIONS: (ex) => answerPreflight(ex, ctx.config.corsOrigin, 'POST, OPTIONS'),
    },
  };
}

function serveTool(ctx: PipelineContext, open: OpenTool, ex: Exchange, req: HttpRequest): void {
  // uWS invalidates `req` once this function returns: read every header now.
  const contentType = req.getHeader('content-type');
  const contentLength = req.getHeader('content-length');
  addCorsHeaders(ex, ctx.config.corsOrigin, req.getHeader('origin') !== '');
  const admitted = admitCaller(ctx, ex, req);
  const early = checkBodyHeaders(contentType, contentLength);
  if (admitted instanceof Promise) return admitWhileReading(ctx, open, ex, admitted, early);
  if (admitted !== null) return refuse(ex, admitted);
  if (early !== null) return refuse(ex, early);
  readBody(ex, ctx.config.bodyTimeoutMs, ctx.deadlines, (body) => afterBody(ctx, open, ex, body));
}

// A shared store answers later, but uWS hands the body over only to a reader attached now: read it
// while the store decides, and go on once both are in.
function admitWhileReading(ctx: PipelineContext, open: OpenTool, ex: Exchange, pending: Promise<AdmitRefusal | null>, early: StageRefusal | null): void {
  let body: BodyOutcome | null = null;
  let verdict: AdmitRefusal | null | undefined;
  const proceed = () => {
    if (verdict === undefined) return;
    if (verdict !== null) return refuse(ex, verdict);
    if (early !== null) return refuse(ex, early);
    if (body !== null) afterBody(ctx, open, ex, body);
  };
  // A body in uWS's own buffer is gone once its callback returns, and this one is used later: copy it.
  const keep = (b: BodyOutcome): BodyOutcome => (b.kind === 'body' ? { kind: 'body', bytes: b.bytes.slice() } : b);
  if (early === null) readBody(ex, ctx.config.bodyTimeoutMs, ctx.deadlines, (b) => ((body = keep(b)), proceed()));
  guardLater(ex, pending.then((v) => ((verdict = v), proceed())));
}

// Synchronous up to the tool: a refused body is answered from inside uWS's data callback, with no promise in between.
function afterBody(ctx: PipelineContext, open: OpenTool, ex: Exchange, body: BodyOutcome): void {
  if (body.kind === 'aborted') return;
  if (body.kind === 'refused') return refuse(ex, body.refusal);
  const json = parseJsonObject(body.bytes);
  if (json.kind === 'refused') return refuse(ex, json.refusal);
  const valid = validateRequest(open.validate, json.value);
  if (!valid.ok) return refuse(ex, valid.refusal);
  guardLater(ex, runTool(ex, open.slot, valid.request, ctx.log).then((outcome) => respond(ex, outcome)));
}
