import type { Answer } from '../../util/answer';
import type { Exchange } from '../exchange';

// One request's way through its route: a list of small named stages that one runner drives in order,
// as fastify's hooks and hono's compose do. A stage hands on by returning NEXT, or answers (a refusal,
// the result) and so ends the request; or it pauses (`ctl.pause()`) and hands on later, once, through the
// function pause gave it, from a store's or a tool's callback. Reading a route's list of stages is reading
// what happens to its requests, in order.
//
// Every stage runs inside the runner's guard: a throw, synchronous or from a continuation that resumes
// the route, becomes the exchange's fault (a logged 500 internal-error, or a streamed response's problem
// event), never the process's. A store's answer comes through `guarded`, a tool's promise through
// `later`: both guard the continuation as well, and a tool's rejection (a throw in anything it scheduled
// itself) reaches the same fault: one funnel, logged once as "request failed".
//
// A stage that hands on now returns a value rather than calling a function: a function per stage and
// request (to tell which stage calls it) was most of what the runner allocated, and the allocation cost
// the validation path more CPU than its instruction count shows (bench/README.md).
export const NEXT = 1;
export type Step = typeof NEXT | void;
export type Next = () => void;

// What a stage may ask of the runner while its run() is on the stack.
export interface StageControl {
  // The request waits in this stage: the function returned hands on to the next stage, once.
  pause(): Next;
}

export interface Stage<R> {
  readonly name: string;
  run(r: R, ctl: StageControl): Step;
}

export interface Flow {
  readonly ex: Exchange;
}

// `suspended`: called once if the stages that ran while uWS's handler was on the stack left the request
// waiting (a shared store deciding); `at` names the stage it waits in. uWS hands the body only to a
// reader attached before its handler returns: this is where a route attaches one early.
// Each stage hands on once: a second time (pausing twice, resuming twice, or pausing and returning NEXT)
// is a bug of that stage (it would run the rest of the route twice), and, as hono's compose throws on
// a second next(), it is the exchange's fault.
export function runStages<R extends Flow>(stages: ReadonlyArray<Stage<R>>, r: R, suspended?: (r: R, at: string) => void): void {
  if (stages.length > MAX_STAGES) throw new Error(`a route of ${stages.length} stages: at most ${MAX_STAGES}`);
  const run = new StageRun(stages, r);
  run.from(0);
  if (suspended !== undefined && r.ex.open && run.reached < stages.length - 1) suspended(r, (stages[run.reached] as Stage<R>).name);
}

// One request's progress: which stage runs now, the furthest reached, and two bits a stage (paused,
// resumed) in one small integer, so that a request costs this one object however many stages it has.
class StageRun<R extends Flow> implements StageControl {
  reached = 0;
  private running = -1;
  private bits = 0;

  constructor(
    private readonly stages: ReadonlyArray<Stage<R>>,
    private readonly r: R,
  ) {}

  from(first: number): void {
    const { stages, r } = this;
    for (let i = first; i < stages.length && r.ex.open; i++) {
      const stage = stages[i] as Stage<R>;
      if (i > this.reached) this.reached = i;
      const outer = this.running;
      this.running = i;
      let step: Step;
      try {
        step = stage.run(r, this);
      } catch (err) {
        return r.ex.fail(err);
      } finally {
        this.running = outer;
      }
      if (step !== NEXT) return;
      if (this.has(i, PAUSED)) return r.ex.fail(twice(stage));
    }
  }

  pause(): Next {
    const i = this.running;
    const stage = this.stages[i];
    if (stage === undefined) throw new Error('pause() outside a stage');
    if (this.has(i, PAUSED)) throw twice(stage);
    this.bits |= PAUSED << (2 * i);
    return () => {
      if (this.has(i, RESUMED)) return this.r.ex.fail(twice(stage));
      this.bits |= RESUMED << (2 * i);
      this.from(i + 1);
    };
  }

  private has(i: number, bit: number): boolean {
    return (this.bits & (bit << (2 * i))) !== 0;
  }
}

const PAUSED = 1;
const RESUMED = 2;
const MAX_STAGES = 15; // two bits each in a 31-bit small integer

function twice<R>(stage: Stage<R>): Error {
  return new Error(`stage '${stage.name}' handed on twice`);
}

// Goes on with a store's or a budget's answer, whenever it comes (util/answer.ts); an Error, or a throw
// of `then`, is the exchange's fault and never reaches the store that answered.
export function guarded<T>(ex: Exchange, then: (value: T) => void): Answer<T> {
  return (value) => {
    if (value instanceof Error) return ex.fail(value);
    try {
      then(value);
    } catch (err) {
      ex.fail(err);
    }
  };
}

// Goes on once a tool's promise resolves; a rejection is the exchange's fault.
export function later<T>(ex: Exchange, value: Promise<T>, then: (value: T) => void): void {
  value.then(then).catch((err: unknown) => ex.fail(err));
}
