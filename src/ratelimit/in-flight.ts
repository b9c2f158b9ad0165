// Concurrency caps: requests in flight per client (429 too-many-concurrent) and for the whole server
// (503 overloaded). A client whose last request ended keeps its (zero) entry for a while: deleting and
// re-adding a map entry for every request of a returning client cost more than the rest of this
// class together. Idle entries are dropped all at once when there are IDLE_ENTRIES_KEPT of them, so
// the map holds at most the in-flight clients (bounded by the global cap) plus that many.

export interface InFlightOptions {
  /** Most requests one client key may have in flight. */
  perClient: number;
  /** Most requests the server has in flight. */
  global: number;
  /** Retry-After sent with 503 overloaded: a guess, since nobody knows when a slot frees up. */
  overloadedRetryAfterSeconds?: number;
}

export type SlotRefusal = { code: 'too-many-concurrent'; limit: number } | { code: 'overloaded'; limit: number; retryAfterSeconds: number };

// What admission needs of the concurrency caps: this class in one thread, or a table in shared memory
// for all worker threads (shared-in-flight.ts).
export interface InFlightCaps {
  acquire(key: string, perClient?: number): SlotRefusal | null;
  release(key: string): void;
  readonly total: number;
  readonly clients: number;
}

export const DEFAULT_OVERLOADED_RETRY_AFTER_SECONDS = 1;
export const IDLE_ENTRIES_KEPT = 4096;

/**
 * Acquire a slot before any work for a request (and before taking a rate-limit token, so that a
 * request refused here costs the client nothing); release it once when the response is ended or
 * aborted. The caller keeps track of holding a slot (the HTTP exchange does): a slot and a release are
 * one key each, with no handle or closure per request.
 */
export class InFlight implements InFlightCaps {
  readonly #perClient: number;
  readonly #global: number;
  readonly #retryAfter: number;
  // A mutable count per client: a busy client's requests change a number, not the map.
  readonly #byClient = new Map<string, { n: number }>();
  #total = 0;
  #busyClients = 0;
  #idle = 0;

  constructor(options: InFlightOptions) {
    this.#perClient = options.perClient;
    this.#global = options.global;
    this.#retryAfter = options.overloadedRetryAfterSeconds ?? DEFAULT_OVERLOADED_RETRY_AFTER_SECONDS;
  }

  /** Takes a slot for `key` under its cap (a plan may have its own) and answers null, or answers why not (and takes nothing). */
  acquire(key: string, perClient: number = this.#perClient): SlotRefusal | null {
    const mine = this.#byClient.get(key);
    // The client's own cap first: a client over its share is told so even when the server is busy.
    if (mine !== undefined && mine.n >= perClient) return { code: 'too-many-concurrent', limit: perClient };
    if (this.#total >= this.#global) return { code: 'overloaded', limit: this.#global, retryAfterSeconds: this.#retryAfter };
    if (mine === undefined) {
      this.#byClient.set(key, { n: 1 });
      this.#busyClients++;
    } else if (mine.n++ === 0) {
      this.#idle--;
      this.#busyClients++;
    }
    this.#total++;
    return null;
  }

  /** Gives back a slot `acquire` granted for `key`; exactly once per grant. */
  release(key: string): void {
    const mine = this.#byClient.get(key);
    if (mine === undefined || mine.n === 0) return;
    this.#total--;
    if (--mine.n > 0) return;
    this.#busyClients--;
    if (++this.#idle >= IDLE_ENTRIES_KEPT) this.#dropIdle();
  }

  #dropIdle(): void {
    for (const [key, entry] of this.#byClient) if (entry.n === 0) this.#byClient.delete(key);
    this.#idle = 0;
  }

  /** Requests in flight for `key`. */
  count(key: string): number {
    return this.#byClient.get(key)?.n ?? 0;
  }

  /** Requests in flight on the whole server. */
  get total(): number {
    return this.#total;
  }

  /** Client keys with at least one request in flight. */
  get clients(): number {
    return this.#busyClients;
  }

  /** Entries held, idle ones included (for the memory bound). */
  get entries(): number {
    return this.#byClient.size;
  }
}
