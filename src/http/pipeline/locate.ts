import { chooseLocations } from '../../locations/choose';
import type { LocatedRequest, Places } from '../../locations/measure-at';
import type { LocationsSelector } from '../../tools/locations-field';
import { refuse } from '../refusal';
import type { Admission } from './admit';
import type { Caller } from './caller';
import { guarded, type Flow, type Next, type Stage } from './runner';

export interface LocateFlow extends Flow {
  readonly ctx: { readonly places: Places; readonly admission: Admission };
  readonly tool: string;
  caller: Caller | null;
  json: Record<string, unknown> | null;
  request: unknown;
  located: LocatedRequest | null;
}

// A request with `locations`: which locations, and the price. Each location beyond the first costs one
// more token of the caller's bucket (admission took the first), all taken before anything is sent; a
// location that is not connected, or does not run this tool, is a 400 at /locations. Without the field
// this stage does nothing, and the request runs as it always has.
export const LOCATE: Stage<LocateFlow> = {
  name: 'locate',
  run(r, next) {
    // The rest of the request is copied only for a request that has locations: a copy of every field on
    // every request cost more than the rest of this stage.
    const selector = (r.request as { locations?: LocationsSelector }).locations;
    if (selector === undefined) return next();
    const { locations: _asked, ...local } = r.request as { locations?: LocationsSelector };
    const { places } = r.ctx;
    const chosen = chooseLocations(selector, r.tool, places.candidates(), places.max);
    if (!chosen.ok) return refuse(r.ex, { code: 'validation-failed', detail: chosen.message, errors: [{ pointer: '/locations', message: chosen.message }] });
    const { locations: _, ...body } = r.json as Record<string, unknown>;
    r.located = { names: chosen.value, local, body };
    pay(r, chosen.value.length - 1, next);
  },
};

function pay(r: LocateFlow, tokens: number, next: Next): void {
  if (tokens === 0) return next();
  const caller = r.caller as Caller;
  r.ctx.admission.spend(caller.key, caller.plan, guarded(r.ex, (refusal) => (refusal === null ? pay(r, tokens - 1, next) : refuse(r.ex, refusal))));
}
