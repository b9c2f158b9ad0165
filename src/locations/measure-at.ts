import type { Outcome } from '../tools/outcome';
import type { OpenTool } from '../tools/registry';
import type { ToolEvents } from '../tools/tool';
import type { CancelToken } from '../util/cancel';
import type { Candidates } from './choose';
import type { Hub } from './hub';
import type { LocationMetrics } from './metrics';

// Where a request with `locations` can run: this server under its own name, and the hub's agents.
export interface Places {
  readonly self: string;
  readonly max: number; // NETTOOLS_MAX_LOCATIONS_PER_REQUEST
  candidates(): Candidates;
  tool(name: string): OpenTool | undefined; // this server's own tool
  readonly hub: Hub | null; // null: no agents, only `self`
  readonly metrics: LocationMetrics;
}

export interface LocatedRequest {
  readonly names: readonly string[];
  readonly local: unknown; // the request as this server's tool takes it
  readonly body: Record<string, unknown>; // the caller's body without `locations`, for agents to check again
}

// A stream's view of one location: its events as they come, then its outcome as soon as it is known.
export interface LocatedHooks {
  events(location: string): ToolEvents;
  settled(location: string, outcome: Outcome<unknown>): void;
}

export type LocatedOutcomes = ReadonlyArray<readonly [string, Outcome<unknown>]>;

// The same tool request at every named location at once; each location's outcome in the order named. A
// rejection (a bug in this server's own run) rejects the whole, the request's fault; an agent's
// misbehaviour is only its own location's outcome.
export function measureAt(places: Places, tool: string, request: LocatedRequest, cancel: CancelToken, hooks?: LocatedHooks): Promise<LocatedOutcomes> {
  return Promise.all(
    request.names.map(async (name) => {
      const events = hooks?.events(name);
      places.metrics.dispatched(name, tool);
      const outcome = name === places.self ? await runHere(places, tool, request.local, cancel, events) : await runThere(places, name, tool, request, cancel, events);
      places.metrics.ended(name, outcome.ok ? 'ok' : outcome.failure.code);
      hooks?.settled(name, outcome);
      return [name, outcome] as const;
    }),
  );
}

function runHere(places: Places, tool: string, request: unknown, cancel: CancelToken, events?: ToolEvents): Promise<Outcome<unknown>> {
  const slot = places.tool(tool)?.slot;
  if (slot === undefined || 'unavailable' in slot) return Promise.resolve({ ok: false, failure: { code: 'engine-unavailable', detail: slot === undefined ? `${tool} is not served here` : slot.unavailable } });
  return slot.run(request, cancel, events);
}

// At an agent; what this server's own budgets take of it first, where the tool says (the per-target
// budgets: N locations must not send a target N times what one may).
function runThere(places: Places, name: string, tool: string, request: LocatedRequest, cancel: CancelToken, events?: ToolEvents): Promise<Outcome<unknown>> {
  const { hub } = places;
  if (hub === null) return Promise.resolve({ ok: false, failure: { code: 'location-offline', detail: `location ${name} is not connected` } });
  const send = (ev?: ToolEvents) => hub.run(name, tool, request.body, cancel, ev);
  const slot = places.tool(tool)?.slot;
  if (slot === undefined || 'unavailable' in slot || slot.elsewhere === undefined) return send(events);
  return slot.elsewhere(request.local, cancel, events, send);
}
