// Concurrency caps: requests in flight per client (429 too-many-concurrent) and for the whole server
// (503 overloaded). Only clients with something in flight have an entry, so the map is bounded by
// the global cap: no eviction policy needed.

export interface InFlightOptions {
  /** Most requests one client key may have in flight. */
  perClient: number;
  /** Most requests the server has in flight. */
  global: number;
  /** Retry-After sent with 503 overloaded: a guess, since nobody knows when a slot frees up. */
  overloadedRetryAfterSeconds?: number;
}

export type Acquired =
  | { ok: true; release: () => void }
  | { ok: false; code: 'too-many-concurrent'; limit: number }
  | { ok: false; code: 'overloaded'; limit: number; retryAfterSeconds: number };

export const DEFAULT_OVERLOADED_RETRY_AFTER_SECONDS = 1;

/**
 * Acquire a slot before any work for a request (and before taking a rate-limit token, so that a
 * request refused here costs the client nothing); call `release` when the response is ended or
 * aborted. Release is idempotent, so calling it from both the end and the abort path is safe.
 */
export class InFlight {
  readonly #perClient: number;
  readonly #global: number;
  readonly #retryAfter: number;
  readonly #byClient = new Map<string, number>();
  #total = 0;

  constructor(options: InFlightOptions) {
    this.#perClient = options.perClient;
    this.#global = options.global;
    this.#retryAfter = options.overloadedRetryAfterSeconds ?? DEFAULT_OVERLOADED_RETRY_AFTER_SECONDS;
  }

  acquire(key: string): Acquired {
    const mine = this.#byClient.get(key) ?? 0;
    // The client's own cap first: a client over its share is told so even when the server is busy.
    if (mine >= this.#perClient) return { ok: false, code: 'too-many-concurrent', limit: this.#perClient };
    if (this.#total >= this.#global) {
      return { ok: false, code: 'overloaded', limit: this.#global, retryAfterSeconds: this.#retryAfter };
    }
    this.#byClient.set(key, mine + 1);
    this.#total++;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.#total--;
        const left = (this.#byClient.get(key) ?? 1) - 1;
        if (left === 0) this.#byClient.delete(key);
        else this.#byClient.set(key, left);
      },
    };
  }

  /** Requests in flight for `key`. */
  count(key: string): number {
    return this.#byClient.get(key) ?? 0;
  }

  /** Requests in flight on the whole server. */
  get total(): number {
    return this.#total;
  }

  /** Client keys with at least one request in flight. */
  get clients(): number {
    return this.#byClient.size;
  }
}
