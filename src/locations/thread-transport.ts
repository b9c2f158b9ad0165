import { BroadcastChannel } from 'node:worker_threads';
import type { LocationEntry } from './hub';
import { readListing, type Listing, type RelayTransport, type Wire } from './relay-transport';

// The relay between the worker threads of one process: an agent's WebSocket lands on one worker, and a
// request on any other reaches it through here. Each worker posts its listings on one shared channel and
// keeps everyone's; each has a channel of its own for the messages sent to it. BroadcastChannel names
// are per process, so two servers on one machine never hear each other.

const LISTINGS = 'nettools:locations';
const channelOf = (hub: string) => `nettools:hub:${hub}`;

interface Posted {
  hub: string;
  at: number;
  listings: Listing[];
}

// A hub not heard from for this long is forgotten, with the channel to it (its listings went stale long
// before): a worker replaced many times must not leave one behind per predecessor.
const FORGET_MS = 60_000;

export class ThreadTransport implements RelayTransport {
  readonly #listings = new BroadcastChannel(LISTINGS);
  readonly #heard = new Map<string, Posted>(); // by hub: what it posted last
  readonly #outgoing = new Map<string, BroadcastChannel>();
  #own: BroadcastChannel | null = null;

  constructor() {
    // The channels must not keep a worker thread alive once it has shut down; close() closes them.
    this.#listings.unref();
    this.#listings.onmessage = (event) => {
      const posted = (event as { data: Posted | null }).data;
      if (typeof posted?.hub !== 'string' || typeof posted.at !== 'number' || !Array.isArray(posted.listings)) return;
      this.#heard.set(posted.hub, { hub: posted.hub, at: posted.at, listings: posted.listings.flatMap((l: unknown) => readListing(l) ?? []) });
    };
  }

  listen(self: string, received: (message: Wire) => void): void {
    const own = new BroadcastChannel(channelOf(self));
    own.unref();
    own.onmessage = (event) => received((event as { data: Wire }).data);
    this.#own = own;
  }

  send(hub: string, message: Wire): void {
    let channel = this.#outgoing.get(hub);
    if (channel === undefined) {
      channel = new BroadcastChannel(channelOf(hub));
      channel.unref();
      this.#outgoing.set(hub, channel);
    }
    channel.postMessage(message);
  }

  exchange(self: string, mine: readonly LocationEntry[], nowMs: number): Promise<Listing[]> {
    this.#listings.postMessage({ hub: self, at: nowMs, listings: mine.map((entry) => ({ hub: self, entry, at: nowMs })) } satisfies Posted);
    // A hub that went away stops posting: its listings age out in the relay, and it is forgotten here.
    for (const [hub, posted] of this.#heard) {
      if (nowMs - posted.at <= FORGET_MS) continue;
      this.#heard.delete(hub);
      this.#outgoing.get(hub)?.close();
      this.#outgoing.delete(hub);
    }
    return Promise.resolve([...this.#heard.values()].flatMap((p) => p.listings));
  }

  close(self: string): Promise<void> {
    this.#listings.postMessage({ hub: self, at: Date.now(), listings: [] } satisfies Posted);
    for (const channel of [this.#listings, this.#own, ...this.#outgoing.values()]) channel?.close();
    this.#outgoing.clear();
    return Promise.resolve();
  }
}
