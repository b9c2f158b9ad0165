import type { LocationEntry } from './hub';
import type { LocationsSelector } from '../tools/locations-field';
import { fail, ok, type Result } from '../util/result';

// What can run a tool now: this server under its own name, and each connected agent that announced it.
export interface Candidates {
  self: string;
  agents: readonly LocationEntry[];
}

// The names a request's `locations` picks, in the order the answer lists them, or why it cannot be served
// (a 400 at /locations): a location not connected, or one that does not run this tool, or more than `max`.
export function chooseLocations(selector: LocationsSelector, tool: string, from: Candidates, max: number, random: () => number = Math.random): Result<string[], 'bad-locations'> {
  const runs = [from.self, ...from.agents.filter((a) => a.tools.includes(tool)).map((a) => a.name)];
  if (selector === 'all') {
    if (runs.length > max) return fail('bad-locations', `"all" is ${runs.length} locations here, more than the ${max} one request may use (NETTOOLS_MAX_LOCATIONS_PER_REQUEST): name them, or ask for a number`);
    return ok(runs);
  }
  if (typeof selector === 'number') {
    if (selector > max) return fail('bad-locations', `at most ${max} locations per request (NETTOOLS_MAX_LOCATIONS_PER_REQUEST)`);
    if (selector > runs.length) return fail('bad-locations', `${selector} locations asked for, ${runs.length} connected that run ${tool}`);
    return ok(pick(runs, selector, random));
  }
  if (selector.length > max) return fail('bad-locations', `at most ${max} locations per request (NETTOOLS_MAX_LOCATIONS_PER_REQUEST)`);
  for (const name of selector) {
    if (runs.includes(name)) continue;
    const agent = from.agents.find((a) => a.name === name);
    return fail('bad-locations', agent === undefined ? `location ${name} is not connected (see GET /api/locations)` : `location ${name} does not run ${tool}`);
  }
  return ok([...selector]);
}

// N of them at random (a partial Fisher-Yates shuffle), listed in the order the candidates had.
function pick(names: readonly string[], n: number, random: () => number): string[] {
  const order = names.map((_, i) => i);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (order.length - i));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order.slice(0, n).sort((a, b) => a - b).map((i) => names[i] as string);
}
