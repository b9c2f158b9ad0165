// What crosses between a hub and its agents besides the hello (hello-schema.ts), and the close codes
// each end uses, so a log line on either side says why a connection ended.

// The hub's answer to a good hello: the agent is listed from now on.
export interface Welcome {
  type: 'welcome';
  hub: string; // the hub's own location name
}

export const CLOSE = {
  goingAway: 1001, // the hub or the agent is shutting down
  policy: 1008, // a malformed hello, a hello for another location, or a message the protocol has no place for
  replaced: 4000, // a newer connection for the same location took this one's place
  revoked: 4001, // the key was revoked (or left the file) and the hub reloaded its keys
  backpressure: 4003, // the peer did not read what it was sent
} as const;

// The longest message either end accepts; a hello is well under 4 KiB.
export const MAX_MESSAGE_BYTES = 64 * 1024;
// What one agent may send in a second; a flood past it cuts that agent off. Generous: 64 streamed pings
// at their fastest send about 640 events a second.
export const MAX_MESSAGES_PER_SECOND = 2000;
// What the hub lets pile up unsent to one agent before it gives that agent up.
export const MAX_BACKPRESSURE_BYTES = 1024 * 1024;

// The name a hub gives itself in GET /api/locations when NETTOOLS_LOCATION is empty.
export const HUB_SELF_DEFAULT = 'local';
