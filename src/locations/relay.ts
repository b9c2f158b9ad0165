import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { Logger } from '../log';
import type { Outcome, ToolFailure } from '../tools/outcome';
import type { ToolEvents } from '../tools/tool';
import { CancelSource, type CancelToken } from '../util/cancel';
import type { Hub, LocationEntry } from './hub';

// Hubs behind one load balancer share Redis; an agent is connected to one of them. Each hub writes its
// agents into one Redis hash every second, and reads the others' from it, so every hub lists and can use
// every location. A measurement for an agent of another hub goes to that hub over Redis pub/sub (its own
// channel), which runs it as its own (its checks of the agent's output included) and sends the events,
// the payments asked for, and the outcome back on the asking hub's channel; a cancel goes the same way.
// A hub whose entries stop being renewed is gone: what was running through it ends as location-offline.

const LOCATIONS_KEY = 'nettools:locations';
const channelOf = (hub: string) => `nettools:hub:${hub}`;

interface Listing {
  hub: string;
  entry: LocationEntry;
  at: number; // ms since the epoch, when its hub last renewed it
}

type Wire =
  | { type: 'run'; from: string; id: number; location: string; tool: string; request: Record<string, unknown>; stream: boolean }
  | { type: 'cancel'; from: string; id: number }
  | { type: 'spent'; from: string; id: number; failure: ToolFailure | null }
  | { type: 'event'; id: number; event: string; data: Record<string, unknown> }
  | { type: 'spend'; id: number }
  | { type: 'done'; id: number; outcome: Outcome<unknown> };

interface Asked {
  owner: string;
  location: string;
  events: ToolEvents | undefined;
  finish: (outcome: Outcome<unknown>) => void;
  stopListening: () => void;
}

interface Served {
  cancel: CancelSource;
  spends: Array<(failure: ToolFailure | null) => void>;
}

export interface RelayOptions {
  url: string;
  hub: Hub | null; // this server's agents, if it takes any
  log: Logger;
  everyMs?: number; // how often entries are renewed and read (1000)
  staleMs?: number; // an entry older than this is gone (5000)
}

export class LocationRelay {
  readonly id = randomUUID();
  readonly #pub: Redis;
  readonly #sub: Redis;
  readonly #everyMs: number;
  readonly #staleMs: number;
  #remote = new Map<string, Listing>();
  readonly #asked = new Map<number, Asked>();
  readonly #served = new Map<string, Served>();
  #next = 1;
  #timer: NodeJS.Timeout | null = null;

  constructor(private readonly o: RelayOptions) {
    // Loaded only here, as for the shared budgets: ioredis costs memory a server without Redis never needs.
    const IORedis = require('ioredis') as typeof import('ioredis').default;
    const options = { enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => 1000 };
    this.#pub = new IORedis(o.url, options);
    this.#sub = new IORedis(o.url, { ...options, enableOfflineQueue: true });
    for (const r of [this.#pub, this.#sub]) r.on('error', () => {});
    this.#everyMs = o.everyMs ?? 1000;
    this.#staleMs = o.staleMs ?? 5000;
    this.#sub.on('message', (_channel: string, text: string) => this.received(text));
    void this.#sub.subscribe(channelOf(this.id)).catch(() => undefined);
    this.#timer = setInterval(() => void this.tick().catch(() => undefined), this.#everyMs);
    this.#timer.unref();
  }

  // Locations of other hubs, fresh as of the last read.
  remote(): LocationEntry[] {
    return [...this.#remote.values()].map((l) => l.entry);
  }

  has(location: string): boolean {
    return this.#remote.has(location);
  }

  run(location: string, tool: string, request: Record<string, unknown>, cancel: CancelToken, events?: ToolEvents): Promise<Outcome<unknown>> {
    const listing = this.#remote.get(location);
    if (listing === undefined) return Promise.resolve(offline(location, 'is not connected'));
    const id = this.#next++;
    return new Promise((resolve) => {
      const asked: Asked = { owner: listing.hub, location, events, finish: resolve, stopListening: () => undefined };
      this.#asked.set(id, asked);
      asked.stopListening = cancel.onAbort(() => {
        this.settle(id, { ok: false, failure: { code: 'aborted', detail: 'the caller went away' } });
        this.publish(listing.hub, { type: 'cancel', from: this.id, id });
      });
      this.publish(listing.hub, { type: 'run', from: this.id, id, location, tool, request, stream: events !== undefined });
    });
  }

  async close(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    for (const served of this.#served.values()) served.cancel.abort();
    const mine = this.o.hub?.list().map((e) => e.name) ?? [];
    if (mine.length > 0) await this.#pub.hdel(LOCATIONS_KEY, ...mine).catch(() => undefined);
    this.#pub.disconnect();
    this.#sub.disconnect();
  }

  // Renews this hub's entries, reads everyone's, and ends what was asked of a hub that is gone.
  private async tick(): Promise<void> {
    const now = Date.now();
    const mine = this.o.hub?.list() ?? [];
    if (mine.length > 0) await this.#pub.hset(LOCATIONS_KEY, Object.fromEntries(mine.map((entry) => [entry.name, JSON.stringify({ hub: this.id, entry, at: now } satisfies Listing)])));
    const all = await this.#pub.hgetall(LOCATIONS_KEY);
    const remote = new Map<string, Listing>();
    for (const [name, text] of Object.entries(all)) {
      const listing = readListing(text);
      if (listing === null || listing.hub === this.id || now - listing.at > this.#staleMs) continue;
      remote.set(name, listing);
    }
    this.#remote = remote;
    for (const [id, asked] of this.#asked) {
      if (remote.get(asked.location)?.hub !== asked.owner) this.settle(id, offline(asked.location, 'went away (its hub stopped answering)'));
    }
  }

  private publish(hub: string, message: Wire): void {
    void this.#pub.publish(channelOf(hub), JSON.stringify(message)).catch(() => undefined);
  }

  private settle(id: number, outcome: Outcome<unknown>): void {
    const asked = this.#asked.get(id);
    if (asked === undefined) return;
    this.#asked.delete(id);
    asked.stopListening();
    asked.finish(outcome);
  }

  private received(text: string): void {
    let message: Wire;
    try {
      message = JSON.parse(text) as Wire;
    } catch {
      return;
    }
    if (message.type === 'run') return this.serve(message);
    if (message.type === 'cancel' || message.type === 'spent') return this.servedMessage(message);
    const asked = this.#asked.get(message.id);
    if (asked === undefined) return;
    if (message.type === 'done') return this.settle(message.id, message.outcome);
    if (message.type === 'spend') return asked.events?.spend((paid) => this.publish(asked.owner, { type: 'spent', from: this.id, id: message.id, failure: paid instanceof Error ? { code: 'internal-error', detail: paid.message } : paid }));
    if (message.event === 'start') asked.events?.start(message.data);
    else asked.events?.item(message.event, message.data);
  }

  // Another hub asks for a measurement at one of this hub's agents.
  private serve(message: Extract<Wire, { type: 'run' }>): void {
    const key = `${message.from}:${message.id}`;
    const served: Served = { cancel: new CancelSource(), spends: [] };
    this.#served.set(key, served);
    const back = (reply: Wire) => this.publish(message.from, reply);
    const events: ToolEvents | undefined = message.stream
      ? {
          start: (info) => back({ type: 'event', id: message.id, event: 'start', data: info }),
          item: (event, data) => back({ type: 'event', id: message.id, event, data: data as Record<string, unknown> }),
          spend: (done) => {
            served.spends.push(done);
            back({ type: 'spend', id: message.id });
          },
        }
      : undefined;
    const running = this.o.hub === null ? Promise.resolve(offline(message.location, 'is not connected')) : this.o.hub.run(message.location, message.tool, message.request, served.cancel, events);
    void running.then((outcome) => {
      this.#served.delete(key);
      back({ type: 'done', id: message.id, outcome });
    });
  }

  private servedMessage(message: Extract<Wire, { type: 'cancel' | 'spent' }>): void {
    const served = this.#served.get(`${message.from}:${message.id}`);
    if (served === undefined) return;
    if (message.type === 'cancel') return served.cancel.abort();
    served.spends.shift()?.(message.failure);
  }
}

function offline(location: string, why: string): Outcome<never> {
  return { ok: false, failure: { code: 'location-offline', detail: `location ${location} ${why}` } };
}

function readListing(text: string): Listing | null {
  try {
    const value = JSON.parse(text) as Listing;
    return typeof value.hub === 'string' && typeof value.at === 'number' && typeof value.entry?.name === 'string' ? value : null;
  } catch {
    return null;
  }
}
