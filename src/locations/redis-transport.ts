import type Redis from 'ioredis';
import type { LocationEntry } from './hub';
import { readListing, type Listing, type RelayTransport, type Wire } from './relay-transport';

// The relay between instances on one Redis: every hub writes its agents into one hash and reads everyone's
// from it; each hub has its own pub/sub channel for the messages sent to it.

const LOCATIONS_KEY = 'nettools:locations';
const channelOf = (hub: string) => `nettools:hub:${hub}`;

export class RedisTransport implements RelayTransport {
  readonly #pub: Redis;
  readonly #sub: Redis;

  constructor(url: string) {
    // Loaded only here, as for the shared budgets: ioredis costs memory a server without Redis never needs.
    const IORedis = require('ioredis') as typeof import('ioredis').default;
    const options = { enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => 1000 };
    this.#pub = new IORedis(url, options);
    this.#sub = new IORedis(url, { ...options, enableOfflineQueue: true });
    for (const r of [this.#pub, this.#sub]) r.on('error', () => {});
  }

  listen(self: string, received: (message: Wire) => void): void {
    this.#sub.on('message', (_channel: string, text: string) => {
      const message = parse(text);
      if (message !== null) received(message as Wire);
    });
    void this.#sub.subscribe(channelOf(self)).catch(() => undefined);
  }

  send(hub: string, message: Wire): void {
    void this.#pub.publish(channelOf(hub), JSON.stringify(message)).catch(() => undefined);
  }

  async exchange(self: string, mine: readonly LocationEntry[], nowMs: number): Promise<Listing[]> {
    if (mine.length > 0) await this.#pub.hset(LOCATIONS_KEY, Object.fromEntries(mine.map((entry) => [entry.name, JSON.stringify({ hub: self, entry, at: nowMs } satisfies Listing)])));
    const all = await this.#pub.hgetall(LOCATIONS_KEY);
    return Object.values(all).flatMap((text) => readListing(parse(text)) ?? []);
  }

  async close(_self: string, mine: readonly LocationEntry[]): Promise<void> {
    if (mine.length > 0) await this.#pub.hdel(LOCATIONS_KEY, ...mine.map((e) => e.name)).catch(() => undefined);
    this.#pub.disconnect();
    this.#sub.disconnect();
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
