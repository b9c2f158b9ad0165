import { randomUUID } from 'node:crypto';
import type { Logger } from '../log';
import type { Outcome, ToolFailure } from '../tools/outcome';
import type { ToolEvents } from '../tools/tool';
import { CancelSource, type CancelToken } from '../util/cancel';
import type { Hub, LocationEntry } from './hub';
import type { Listing, RelayTransport, Wire } from './relay-transport';

// Hubs that share their agents: instances behind one load balancer on one Redis, or the worker threads of
// one process (an agent's WebSocket lands on one of them). Each hub renews its agents' listings every tick
// and reads the others', so every hub lists and can use every location. A measurement for an agent of
// another hub goes to that hub (a message addressed to it), which runs it as its own (its checks of the
// agent's output included) and sends the events, the payments asked for, and the outcome back to the
// asking hub; a cancel goes the same way. A hub whose listings stop being renewed is gone: what was
// running through it ends as location-offline. What carries the messages is the transport's business.

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
  transport: RelayTransport;
  hub: Hub | null; // this server's agents, if it takes any
  log: Logger;
  everyMs?: number; // how often entries are renewed and read (1000)
  staleMs?: number; // an entry older than this is gone (5000)
}

export class LocationRelay {
  readonly id = randomUUID();
  readonly #transport: RelayTransport;
  readonly #everyMs: number;
  readonly #staleMs: number;
  #remote = new Map<string, Listing>();
  readonly #asked = new Map<number, Asked>();
  readonly #served = new Map<string, Served>();
  #next = 1;
  #timer: NodeJS.Timeout | null = null;

  constructor(private readonly o: RelayOptions) {
    this.#transport = o.transport;
    this.#everyMs = o.everyMs ?? 1000;
    this.#staleMs = o.staleMs ?? 5000;
    this.#transport.listen(this.id, (message) => this.received(message));
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
    await this.#transport.close(this.id, this.o.hub?.list() ?? []);
  }

  // Renews this hub's entries, reads everyone's, and ends what was asked of a hub that is gone.
  private async tick(): Promise<void> {
    const now = Date.now();
    const all = await this.#transport.exchange(this.id, this.o.hub?.list() ?? [], now);
    const remote = new Map<string, Listing>();
    for (const listing of all) {
      if (listing.hub === this.id || now - listing.at > this.#staleMs) continue;
      // The same location listed by two hubs (an agent that reconnected to another): the newer wins.
      const known = remote.get(listing.entry.name);
      if (known === undefined || known.entry.connectedSince < listing.entry.connectedSince) remote.set(listing.entry.name, listing);
    }
    this.#remote = remote;
    for (const listing of remote.values()) this.o.hub?.superseded(listing.entry);
    for (const [id, asked] of this.#asked) {
      if (remote.get(asked.location)?.hub !== asked.owner) this.settle(id, offline(asked.location, 'went away (its hub stopped answering)'));
    }
  }

  private publish(hub: string, message: Wire): void {
    this.#transport.send(hub, message);
  }

  private settle(id: number, outcome: Outcome<unknown>): void {
    const asked = this.#asked.get(id);
    if (asked === undefined) return;
    this.#asked.delete(id);
    asked.stopListening();
    asked.finish(outcome);
  }

  private received(message: Wire): void {
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
