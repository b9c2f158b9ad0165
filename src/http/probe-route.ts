import type { FieldError } from '../problems/codes';
import { integerParam, readProbeQuery, toQueryPointer } from '../probe/query';
import type { OpenTool } from '../tools/registry';
import { then } from '../util/maybe';
import type { Exchange } from './exchange';
import type { AdmitRefusal } from './pipeline/admit';
import { admitCaller } from './pipeline/caller';
import type { PipelineContext } from './pipeline/context';
import { respond } from './pipeline/respond';
import { runTool } from './pipeline/run-tool';
import { guardLater } from './guard';
import { refuse, type StageRefusal } from './refusal';
import type { Route } from './route';

const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

// GET /probe: the same pipeline as a tool request, with the query in place of the body and probe
// metrics in place of the JSON result.
export function probeRoute(ctx: PipelineContext, tools: readonly OpenTool[]): Route {
  return {
    allow: 'GET, HEAD',
    methods: {
      GET: (ex, req) => {
        const query = req.getQuery() ?? '';
        guardLater(ex, then(admitCaller(ctx, ex, req), (refusal: AdmitRefusal | null) => (refusal === null ? runProbe(ctx, tools, ex, query) : refuse(ex, refusal))));
      },
    },
  };
}

function probeRequest(tools: readonly OpenTool[], query: string): { open: OpenTool; request: unknown } | StageRefusal {
  const invalid = (errors: FieldError[]): StageRefusal => ({ code: 'validation-failed', detail: 'the query does not describe a probe; pointers name query parameters', errors });
  const read = readProbeQuery(query, tools.map((t) => t.tool.probe));
  if (!read.ok) return invalid(read.errors);
  const open = tools.find((t) => t.tool.probe.module === read.module) as OpenTool;
  const built = open.tool.probe.body(read.target, read.get);
  if ('errors' in built) return invalid(built.errors);
  const timeout = integerParam(read.get('timeout_ms'));
  const parsed = open.validate(timeout === undefined ? built.body : { ...built.body, timeoutMs: timeout });
  if (!parsed.ok) return invalid(parsed.errors.map((e) => toQueryPointer(e, open.tool.probe.pointers)));
  return { open, request: parsed.value };
}

async function runProbe(ctx: PipelineContext, tools: readonly OpenTool[], ex: Exchange, query: string): Promise<void> {
  const chosen = probeRequest(tools, query);
  if ('code' in chosen) return refuse(ex, chosen);
  const { open, request } = chosen;
  const started = performance.now();
  const outcome = await runTool(ex, open.slot, request, ctx.log);
  const { probe } = open.tool;
  if (!outcome.ok && !probe.failuresAsMetrics.has(outcome.failure.code)) return respond(ex, outcome);
  const text = await probe.exposition(outcome, request, (performance.now() - started) / 1000);
  ex.send(200, PROMETHEUS_TEXT, text);
}
