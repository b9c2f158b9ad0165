import type { Config } from '../config/types';
import { ClientLimiter } from '../ratelimit/client-limiter';
import { createRateLimitHeaderWriter, retryAfterHeader } from '../ratelimit/headers';
import { InFlight } from '../ratelimit/in-flight';
import type { Exchange } from './exchange';
import { sendProblem } from './send-problem';

// Who may start a tool request now: the concurrency caps first (a refusal there costs no token),
// then the client's token bucket. Every answer, refusals included, carries the rate-limit headers.
export class Admission {
  readonly limiter: ClientLimiter;
  readonly inFlight: InFlight;
  private readonly pruneTimer: NodeJS.Timeout;
  private readonly headersFor: ReturnType<typeof createRateLimitHeaderWriter>;

  constructor(config: Config) {
    this.limiter = new ClientLimiter({ rate: config.rateLimit, max: config.rateLimitCacheMax });
    this.inFlight = new InFlight({ perClient: config.maxInFlightPerClient, global: config.maxInFlight });
    this.headersFor = createRateLimitHeaderWriter({ limit: config.rateLimit.capacity, windowMs: config.rateLimit.windowMs });
    // Full buckets are dropped in the background; unref'd so it never keeps the process alive.
    this.pruneTimer = setInterval(() => this.limiter.prune(), 60_000).unref();
  }

  // True when the request may go on; otherwise the refusal has been sent. A request let in holds a
  // concurrency slot until `settled` is called for its exchange.
  admit(ex: Exchange, key: string): boolean {
    const refusal = this.inFlight.acquire(key);
    if (refusal !== null) {
      this.headersFor(this.limiter.peek(key, ex.startedAt), ex);
      if (refusal.code === 'overloaded') {
        for (const [name, value] of retryAfterHeader(refusal.retryAfterSeconds)) ex.header(name, value);
        sendProblem(ex, 'overloaded', `the server has ${refusal.limit} requests in flight; try again shortly`);
      } else {
        sendProblem(ex, 'too-many-concurrent', `at most ${refusal.limit} requests per client may be in flight at once`);
      }
      return false;
    }
    ex.slotKey = key;
    const decision = this.limiter.check(key, ex.startedAt);
    this.headersFor(decision, ex);
    if (!decision.allowed) {
      sendProblem(ex, 'rate-limited', `${decision.limit} requests per ${decision.windowMs / 1000} s; retry after ${decision.retryAfterSeconds} s`);
      return false;
    }
    return true;
  }

  // Frees the exchange's concurrency slot, if it holds one; once, however often it is called.
  settled(ex: Exchange): void {
    if (ex.slotKey === null) return;
    this.inFlight.release(ex.slotKey);
    ex.slotKey = null;
  }

  close(): void {
    clearInterval(this.pruneTimer);
  }
}
