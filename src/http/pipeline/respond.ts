import type { Outcome } from '../../tools/outcome';
import type { Exchange } from '../exchange';
import { refuse } from '../refusal';
import type { Flow, Stage } from './runner';

// A tool's outcome as the response: its result as JSON, or its failure as a problem. A client that
// went away gets nothing (the exchange ignores writes once it is settled).
export function respond<Res>(ex: Exchange, outcome: Outcome<Res>): void {
  if (outcome.ok) ex.json(200, outcome.value);
  else refuse(ex, outcome.failure);
}

// The JSON answer. RUN_STREAMED (stream.ts) is the second respond stage beside RUN and this one (events
// as they come); a route picks one of the two by the request's Accept.
export const RESPOND_JSON: Stage<Flow & { outcome: Outcome<unknown> | null }> = {
  name: 'respond',
  run(r) {
    respond(r.ex, r.outcome as Outcome<unknown>);
  },
};
