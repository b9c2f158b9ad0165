import type { Outcome, ToolFailure } from '../tools/outcome';
import type { LocationEntry } from './hub';

// What carries the relay between hubs (relay.ts): Redis between instances, a BroadcastChannel between
// the worker threads of one process. The relay speaks only through this, so one code path serves both.

// One hub's listing of one of its agents.
export interface Listing {
  hub: string; // the relay id of the hub holding the agent
  entry: LocationEntry;
  at: number; // ms since the epoch, when its hub last renewed it
}

export type Wire =
  | { type: 'run'; from: string; id: number; location: string; tool: string; request: Record<string, unknown>; stream: boolean }
  | { type: 'cancel'; from: string; id: number }
  | { type: 'spent'; from: string; id: number; failure: ToolFailure | null }
  | { type: 'event'; id: number; event: string; data: Record<string, unknown> }
  | { type: 'spend'; id: number }
  | { type: 'done'; id: number; outcome: Outcome<unknown> };

export interface RelayTransport {
  // Starts delivering the messages sent to hub `self`.
  listen(self: string, received: (message: Wire) => void): void;
  send(hub: string, message: Wire): void;
  // Renews this hub's listings and reads every hub's (its own included; the relay leaves those out).
  exchange(self: string, mine: readonly LocationEntry[], nowMs: number): Promise<Listing[]>;
  // Shutdown: this hub's listings are taken back, and nothing is left open.
  close(self: string, mine: readonly LocationEntry[]): Promise<void>;
}

export function readListing(value: unknown): Listing | null {
  const listing = value as Listing | null;
  return typeof listing?.hub === 'string' && typeof listing.at === 'number' && typeof listing.entry?.name === 'string' ? listing : null;
}
