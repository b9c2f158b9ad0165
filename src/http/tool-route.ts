import type { OpenTool } from '../tools/registry';
import type { Outcome } from '../tools/outcome';
import type { ToolSlot } from '../tools/tool';
import type { Validate } from '../validation/validator';
import { negotiate, type ResponseMode } from './accept';
import { addCorsHeaders, answerPreflight } from './cors';
import type { Exchange } from './exchange';
import { ADMIT, IDENTIFY, type Caller } from './pipeline/caller';
import type { PipelineContext } from './pipeline/context';
import { PARSE } from './pipeline/parse';
import { CHECK_BODY_HEADERS, checkBodyHeaders, READ_BODY, startReading, type BodyOutcome } from './pipeline/read-body';
import { RESPOND_JSON } from './pipeline/respond';
import { LOCATE } from './pipeline/locate';
import type { LocatedRequest } from '../locations/measure-at';
import { RUN } from './pipeline/run-tool';
import { RUN_STREAMED } from './pipeline/stream';
import { VALIDATE } from './pipeline/validate';
import { runStages, type Stage } from './pipeline/runner';
import type { StageRefusal } from './refusal';
import type { Route } from './route';
import type { HttpRequest } from './uws';

// One tool request as the stages fill it in, plain data.
interface ToolFlow {
  readonly ex: Exchange;
  readonly ctx: PipelineContext;
  readonly slot: ToolSlot<unknown, unknown>;
  readonly validate: Validate<unknown>;
  readonly tool: string;
  mode: ResponseMode;
  req: HttpRequest | null;
  caller: Caller | null;
  early: StageRefusal | null;
  reading: boolean;
  arrived: BodyOutcome | null;
  waiting: ((body: BodyOutcome) => void) | null;
  bytes: Uint8Array | null;
  json: Record<string, unknown> | null;
  request: unknown;
  located: LocatedRequest | null;
  outcome: Outcome<unknown> | null;
}

// What the headers say, read while uWS's `req` is valid (it is not once the handler returns). Accept
// (`mode`) is read just before, by the handler: it picks which list of stages runs.
const READ_HEADERS: Stage<ToolFlow> = {
  name: 'read-headers',
  run(r, next) {
    const req = r.req as HttpRequest;
    r.early = checkBodyHeaders(req.getHeader('content-type'), req.getHeader('content-length'));
    addCorsHeaders(r.ex, r.ctx.config.corsOrigin, req.getHeader('origin') !== '');
    next();
  },
};

// POST <tool path>, in order. Refusals come in this order too: an admission refusal before a body
// refusal, a body refusal before a schema one.
export const TOOL_STAGES: ReadonlyArray<Stage<ToolFlow>> = [READ_HEADERS, IDENTIFY, ADMIT, CHECK_BODY_HEADERS, READ_BODY, PARSE, VALIDATE, LOCATE, RUN, RESPOND_JSON];

// The same, for a request whose Accept chose a streamed form (accept.ts): run and respond are one stage,
// events written as the tool reports them.
export const STREAMED_TOOL_STAGES: ReadonlyArray<Stage<ToolFlow>> = [...TOOL_STAGES.slice(0, -2), RUN_STREAMED];

// While admission waits on a shared store, the body is read already (uWS hands it only to a reader
// attached before its handler returns), unless its headers refuse it anyway.
function whileWaiting(r: ToolFlow, at: string): void {
  if (at === 'admit' && r.early === null) startReading(r);
}

export function toolRoute(ctx: PipelineContext, open: OpenTool): Route {
  return {
    allow: 'POST, OPTIONS',
    methods: {
      POST: (ex, req) => {
        const mode = negotiate(req.getHeader('accept'));
        const r: ToolFlow = { ex, ctx, slot: open.slot, validate: (mode === 'json' ? open.validate : open.validateStream) as Validate<unknown>, tool: open.tool.name, mode, req, caller: null, early: null, reading: false, arrived: null, waiting: null, bytes: null, json: null, request: null, located: null, outcome: null };
        runStages(mode === 'json' ? TOOL_STAGES : STREAMED_TOOL_STAGES, r, whileWaiting);
        r.req = null;
      },
      OPTIONS: (ex) => answerPreflight(ex, ctx.config.corsOrigin, 'POST, OPTIONS'),
    },
  };
}
