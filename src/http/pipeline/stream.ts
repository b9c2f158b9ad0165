import type { Outcome, ToolFailure } from '../../tools/outcome';
import type { ToolEvents } from '../../tools/tool';
import type { Answer } from '../../util/answer';
import { CancelSource } from '../../util/cancel';
import type { Exchange } from '../exchange';
import type { OpenStreams } from '../open-streams';
import { problemJson } from '../problem-json';
import { problemFor } from '../refusal';
import type { StreamMetrics } from '../stream-metrics';
import { EventStream, type StreamMode } from '../stream-writer';
import { respond } from './respond';
import type { AdmitRefusal } from './admit';
import type { Caller } from './caller';
import type { PipelineContext } from './context';
import { locatedHooks, runLocated } from './run-located';
import { runTool, type RunFlow } from './run-tool';
import { later, type Stage } from './runner';

export interface StreamFlow extends RunFlow {
  readonly ctx: RunFlow['ctx'] & { readonly streams: StreamMetrics; readonly openStreams: OpenStreams; readonly admission: PipelineContext['admission'] };
  mode: 'json' | StreamMode;
  caller: Caller | null;
}

// What a stream that pays as it goes hears when the caller's bucket (or the store holding it) says no.
function unpaid(refusal: AdmitRefusal): ToolFailure {
  if (refusal.code === 'rate-limited') {
    const every = `${refusal.limit} requests per ${refusal.windowMs / 1000} s`;
    return { code: 'caller-rate-limited', detail: `the caller's budget (${every}) is spent: a stream pays one token per ten echoes (ping) or cycles (mtr) started; retry after ${refusal.retryAfterSeconds} s`, retryAfterSeconds: refusal.retryAfterSeconds };
  }
  if (refusal.code === 'rate-limit-store-unavailable') {
    return { code: 'store-unavailable', detail: 'the shared rate-limit store cannot be reached and this server refuses rather than serve unlimited; retry shortly', retryAfterSeconds: refusal.retryAfterSeconds };
  }
  return { code: 'internal-error', detail: `paying for the stream was refused with ${refusal.code}; this is a bug` };
}

const SHUTTING_DOWN: Outcome<never> = { ok: false, failure: { code: 'shutting-down', detail: 'the server is shutting down; the measurement ended here, send it again' } };

// The tool's events, guarded: they come from engine callbacks, where a throw must not unwind into the
// engine; it is the exchange's fault instead (a problem event once the head is out). An object with
// methods, not closures: each event of a stream touches only this and the stream (pinger.ts, Reporter).
class StreamEvents implements ToolEvents {
  constructor(
    private readonly r: StreamFlow,
    private readonly stream: EventStream,
  ) {}

  spend(done: Answer<ToolFailure | null>): void {
    const caller = this.r.caller as Caller;
    this.r.ctx.admission.spend(caller.key, caller.plan, (refusal) => done(refusal === null || refusal instanceof Error ? refusal : unpaid(refusal)));
  }

  start(info: Record<string, unknown>): void {
    try {
      this.stream.event('start', JSON.stringify(info));
    } catch (err) {
      this.r.ex.fail(err);
    }
  }

  item<T>(name: string, data: T, toJson?: (data: T) => string): void {
    try {
      this.stream.event(name, toJson === undefined ? JSON.stringify(data) : toJson(data));
    } catch (err) {
      this.r.ex.fail(err);
    }
  }
}

// The outcome at the end of a stream: the summary (exactly the JSON 200 body) or one problem event. A
// refusal decided before the start has no stream yet: it is the ordinary problem response.
// With `locations`, the last event is `locations` (the JSON body), and a 200 body is never a refusal.
function finish(ex: Exchange, stream: EventStream, outcome: Outcome<unknown>, last = 'summary'): void {
  if (!stream.started && !(outcome.ok && last === 'locations')) return respond(ex, outcome);
  if (outcome.ok) return stream.end(last, JSON.stringify(outcome.value));
  const problem = problemFor(outcome.failure);
  ex.problemCode = problem.code;
  stream.failed(problemJson(problem.code, problem.detail, problem.extensions));
}

// Run and respond in one, for a request whose Accept chose a streamed form: the second respond stage
// beside RUN + RESPOND_JSON, at the end of the same list of stages. The measurement stops when the client
// goes away or when the server shuts down; then the stream ends with a `shutting-down` problem first.
export const RUN_STREAMED: Stage<StreamFlow> = {
  name: 'run-streamed',
  run(r) {
    const { ex } = r;
    const stream = new EventStream(ex, r.mode as StreamMode, r.tool, r.ctx.streams);
    const cancel = new CancelSource();
    const clientGone = ex.onAbort(() => cancel.abort());
    const forget = r.ctx.openStreams.add(() => {
      finish(ex, stream, SHUTTING_DOWN);
      cancel.abort();
    });
    // Settled either way: a rejection (a bug) is the exchange's fault, its problem event, and the
    // measurement stops with the stream.
    const events = new StreamEvents(r, stream);
    const run = r.located === null ? runTool(r.slot, r.request, cancel, events) : runLocated(r.ctx.places, r.tool, r.located, cancel, locatedHooks(ex, stream, (done) => events.spend(done)));
    const settled = run.finally(() => {
      forget();
      clientGone();
      cancel.abort();
    });
    later(ex, settled, (outcome) => finish(ex, stream, outcome, r.located === null ? 'summary' : 'locations'));
  },
};
