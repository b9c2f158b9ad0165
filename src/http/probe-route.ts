import type { FieldError } from '../problems/codes';
import { integerParam, readProbeQuery, toQueryPointer } from '../probe/query';
import type { Outcome } from '../tools/outcome';
import type { OpenTool } from '../tools/registry';
import { hasProbe, type ProbingTool } from '../tools/tool';
import type { Exchange } from './exchange';
import { ADMIT, IDENTIFY, type Caller } from './pipeline/caller';
import type { PipelineContext } from './pipeline/context';
import { respond } from './pipeline/respond';
import { RUN } from './pipeline/run-tool';
import { later, runStages, type Stage } from './pipeline/runner';
import { refuse, type StageRefusal } from './refusal';
import type { Route } from './route';
import type { HttpRequest } from './uws';

const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

// An open tool that has a /probe module.
type ProbingOpenTool = OpenTool & { tool: ProbingTool<unknown, unknown> };

// One probe request as the stages fill it in: the query in place of the body, probe metrics in place
// of the JSON result.
interface ProbeFlow {
  readonly ex: Exchange;
  readonly ctx: PipelineContext;
  readonly tools: readonly ProbingOpenTool[];
  req: HttpRequest | null;
  query: string;
  caller: Caller | null;
  open: ProbingOpenTool | null;
  slot: OpenTool['slot'];
  tool: string;
  request: unknown;
  readonly located: null; // a probe measures here: it takes no `locations`
  startedAt: number;
  outcome: Outcome<unknown> | null;
}

const READ_QUERY: Stage<ProbeFlow> = {
  name: 'read-query',
  run(r, next) {
    r.query = (r.req as HttpRequest).getQuery() ?? '';
    next();
  },
};

// The query as one tool's validated request, or why it is not one.
const CHOOSE_TOOL: Stage<ProbeFlow> = {
  name: 'choose-tool',
  run(r, next) {
    const chosen = probeRequest(r.tools, r.query);
    if ('code' in chosen) return refuse(r.ex, chosen);
    r.open = chosen.open;
    r.slot = chosen.open.slot;
    r.tool = chosen.open.tool.name;
    r.request = chosen.request;
    r.startedAt = performance.now();
    next();
  },
};

// A failure that is an outcome of the measurement is probe_success 0; any other is a problem.
const RESPOND_METRICS: Stage<ProbeFlow> = {
  name: 'respond',
  run(r) {
    const { probe } = (r.open as ProbingOpenTool).tool;
    const outcome = r.outcome as Outcome<unknown>;
    if (!outcome.ok && !probe.failuresAsMetrics.has(outcome.failure.code)) return respond(r.ex, outcome);
    later(r.ex, probe.exposition(outcome, r.request, (performance.now() - r.startedAt) / 1000), (text) => r.ex.send(200, PROMETHEUS_TEXT, text));
  },
};

// GET /probe, in order.
export const PROBE_STAGES: ReadonlyArray<Stage<ProbeFlow>> = [READ_QUERY, IDENTIFY, ADMIT, CHOOSE_TOOL, RUN, RESPOND_METRICS];

export function probeRoute(ctx: PipelineContext, all: readonly OpenTool[]): Route {
  // A tool without a probe module is no module here.
  const tools = all.filter((t): t is ProbingOpenTool => hasProbe(t.tool));
  return {
    allow: 'GET, HEAD',
    methods: {
      GET: (ex, req) => {
        const r: ProbeFlow = { ex, ctx, tools, req, query: '', caller: null, open: null, slot: { unavailable: '' }, tool: '', request: null, located: null, startedAt: 0, outcome: null };
        runStages(PROBE_STAGES, r);
        r.req = null;
      },
    },
  };
}

function probeRequest(tools: readonly ProbingOpenTool[], query: string): { open: ProbingOpenTool; request: unknown } | StageRefusal {
  const invalid = (errors: FieldError[]): StageRefusal => ({ code: 'validation-failed', detail: 'the query does not describe a probe; pointers name query parameters', errors });
  const read = readProbeQuery(query, tools.map((t) => t.tool.probe));
  if (!read.ok) return invalid(read.errors);
  const open = tools.find((t) => t.tool.probe.module === read.module) as ProbingOpenTool;
  const built = open.tool.probe.body(read.target, read.get);
  if ('errors' in built) return invalid(built.errors);
  const timeout = integerParam(read.get('timeout_ms'));
  const parsed = open.validate(timeout === undefined ? built.body : { ...built.body, timeoutMs: timeout });
  if (!parsed.ok) return invalid(parsed.errors.map((e) => toQueryPointer(e, open.tool.probe.pointers)));
  return { open, request: parsed.value };
}
