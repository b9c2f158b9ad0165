import type { Answer } from '../../util/answer';
import type { Exchange } from '../exchange';

// One request's way through its route: a list of small named stages that one runner drives in order,
// as fastify's hooks and hono's compose do. A stage hands on with next(), or answers (a refusal, the
// result) and so ends the request; it may hand on later, from a store's or a tool's callback. Reading a
// route's list of stages is reading what happens to its requests, in order.
//
// Every stage runs inside the runner's guard: a throw, synchronous or from a continuation that calls
// next(), becomes the exchange's fault (a logged 500 internal-error, or a streamed response's problem
// event), never the process's. A store's answer comes through `guarded`, a tool's promise through
// `later`: both guard the continuation as well, and a tool's rejection (a throw in anything it scheduled
// itself) reaches the same fault: one funnel, logged once as "request failed".
export type Next = () => void;

export interface Stage<R> {
  readonly name: string;
  run(r: R, next: Next): void;
}

export interface Flow {
  readonly ex: Exchange;
}

// `suspended`: called once if the stages that ran while uWS's handler was on the stack left the request
// waiting (a shared store deciding); `at` names the stage it waits in. uWS hands the body only to a
// reader attached before its handler returns: this is where a route attaches one early.
// Each stage gets a next() of its own that hands on once: a second call is a bug of that stage (it would
// run the rest of the route twice), and, as hono's compose throws on it, it is the exchange's fault.
export function runStages<R extends Flow>(stages: ReadonlyArray<Stage<R>>, r: R, suspended?: (r: R, at: string) => void): void {
  let at = 0;
  const run = (i: number): void => {
    const stage = stages[i];
    at = i + 1;
    if (stage === undefined || !r.ex.open) return;
    try {
      stage.run(r, handOn(i));
    } catch (err) {
      r.ex.fail(err);
    }
  };
  const handOn = (i: number): Next => {
    let handed = false;
    return () => {
      if (handed) return r.ex.fail(new Error(`stage '${(stages[i] as Stage<R>).name}' called next() twice`));
      handed = true;
      run(i + 1);
    };
  };
  run(0);
  if (suspended !== undefined && r.ex.open && at < stages.length) suspended(r, (stages[at - 1] as Stage<R>).name);
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
