import type { Outcome } from '../../tools/outcome';
import type { ToolEvents } from '../../tools/tool';
import type { Exchange } from '../exchange';
import { problemJson } from '../problem-json';
import { problemFor } from '../refusal';
import type { StreamMetrics } from '../stream-metrics';
import { EventStream, type StreamMode } from '../stream-writer';
import { respond } from './respond';
import { runTool, type RunFlow } from './run-tool';
import { later, type Stage } from './runner';

export interface StreamFlow extends RunFlow {
  readonly ctx: RunFlow['ctx'] & { readonly streams: StreamMetrics };
  readonly tool: string;
  mode: 'json' | StreamMode;
}

// The tool's events, guarded: they come from engine callbacks, where a throw must not unwind into the
// engine; it is the exchange's fault instead (a problem event once the head is out).
function toolEvents(ex: Exchange, stream: EventStream): ToolEvents {
  return {
    start(info) {
      try {
        stream.event('start', JSON.stringify(info));
      } catch (err) {
        ex.fail(err);
      }
    },
    item(name, data) {
      try {
        stream.event(name, JSON.stringify(data));
      } catch (err) {
        ex.fail(err);
      }
    },
  };
}

// The outcome at the end of a stream: the summary (exactly the JSON 200 body) or one problem event. A
// refusal decided before the start has no stream yet: it is the ordinary problem response.
function finish(ex: Exchange, stream: EventStream, outcome: Outcome<unknown>): void {
  if (!stream.started) return respond(ex, outcome);
  if (outcome.ok) {
    stream.event('summary', JSON.stringify(outcome.value));
    return stream.end();
  }
  const problem = problemFor(outcome.failure);
  ex.problemCode = problem.code;
  stream.failed(problemJson(problem.code, problem.detail, problem.extensions));
}

// Run and respond in one, for a request whose Accept chose a streamed form: the second respond stage
// beside RUN + RESPOND_JSON, at the end of the same list of stages.
export const RUN_STREAMED: Stage<StreamFlow> = {
  name: 'run-streamed',
  run(r) {
    const stream = new EventStream(r.ex, r.mode as StreamMode, r.tool, r.ctx.streams);
    later(r.ex, runTool(r.ex, r.slot, r.request, r.ctx.log, toolEvents(r.ex, stream)), (outcome) => finish(r.ex, stream, outcome));
  },
};
