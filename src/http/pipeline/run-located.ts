import { measureAt, type LocatedHooks, type LocatedRequest, type Places } from '../../locations/measure-at';
import type { Outcome } from '../../tools/outcome';
import type { ToolEvents } from '../../tools/tool';
import type { CancelToken } from '../../util/cancel';
import type { Exchange } from '../exchange';
import { locatedBody, locationProblem } from '../located-body';
import type { EventStream } from '../stream-writer';

// A request with `locations`: the tool at each of them, answered as one 200 body (located-body.ts).
export async function runLocated(places: Places, tool: string, located: LocatedRequest, cancel: CancelToken, hooks?: LocatedHooks): Promise<Outcome<unknown>> {
  const outcomes = await measureAt(places, tool, located, cancel, hooks);
  return { ok: true, value: locatedBody(places.tool(tool)?.tool, outcomes) };
}

// The location goes into every event's data, last, so that nothing an agent sent can stand in for it.
function tagged(location: string, data: unknown): string {
  return JSON.stringify(Object.assign({ location }, data as object, { location }));
}

// A streamed request with `locations`: every location's events as they come, each with its `location`;
// then that location's `summary` (its 200 body) or `problem`. The caller's stream ends with `locations`.
export function locatedHooks(ex: Exchange, stream: EventStream, spend: ToolEvents['spend']): LocatedHooks {
  const write = (name: string, location: string, data: unknown) => {
    try {
      stream.event(name, tagged(location, data));
    } catch (err) {
      ex.fail(err);
    }
  };
  return {
    events: (location) => ({
      start: (info) => write('start', location, info),
      item: (name, data) => write(name, location, data),
      spend,
    }),
    settled(location, outcome) {
      if (outcome.ok) write('summary', location, outcome.value);
      else if (outcome.failure.code !== 'aborted') write('problem', location, locationProblem(outcome));
    },
  };
}
