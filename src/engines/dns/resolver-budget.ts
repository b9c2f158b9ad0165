import type { ResolverConfig } from '../../config/types';
import type { LimiterStore } from '../../ratelimit/limiter-store';
import type { BucketParams } from '../../ratelimit/token-bucket';
import { monotonicMs } from '../../util/clock';

// How many queries a second this server sends to each resolver, whoever asks: a public resolver
// throttles, then blocks, an address that asks too much, and then nobody gets an answer. One token
// bucket per resolver in a LimiterStore (shared by every worker thread, or instance, that shares the
// store), refilling `qps` tokens a second.

export type Reservation = { granted: true } | { granted: false; resolver: string; retryAfterSeconds: number };

export class ResolverBudget {
  private readonly rule: BucketParams;

  constructor(
    private readonly store: LimiterStore,
    readonly qps: number,
    private readonly now: () => number = monotonicMs,
  ) {
    this.rule = { capacity: qps, windowMs: 1000 };
  }

  private key(resolver: ResolverConfig): string {
    return `resolver:${resolver.address}:${resolver.port}`;
  }

  // All of `costs` or nothing: every resolver's share is looked at before any is spent.
  async reserve(costs: ReadonlyMap<ResolverConfig, number>): Promise<Reservation> {
    const at = this.now();
    for (const [resolver, cost] of costs) {
      if (cost > this.qps) return { granted: false, resolver: resolver.id, retryAfterSeconds: 1 };
      const seen = await this.store.peek(this.key(resolver), this.rule, at);
      if (seen.remaining < cost) {
        const short = cost - seen.remaining;
        return { granted: false, resolver: resolver.id, retryAfterSeconds: Math.max(1, Math.ceil(short / this.qps)) };
      }
    }
    for (const [resolver, cost] of costs) {
      const taken = await this.store.take(this.key(resolver), this.rule, cost, at);
      if (!taken.allowed) return { granted: false, resolver: resolver.id, retryAfterSeconds: Math.max(1, taken.retryAfterSeconds) };
    }
    return { granted: true };
  }

  // Sends made beyond the reservation (a resend, a TCP fall-back) are spent afterwards, as far as the
  // bucket holds them: they were sent already, and the next requests pay.
  async charge(resolver: ResolverConfig, sends: number): Promise<void> {
    if (sends <= 0) return;
    const at = this.now();
    const seen = await this.store.peek(this.key(resolver), this.rule, at);
    const cost = Math.min(sends, seen.remaining);
    if (cost > 0) await this.store.take(this.key(resolver), this.rule, cost, at);
  }

  // Queries each resolver may still be sent this second (for the metrics).
  async remaining(resolver: ResolverConfig): Promise<number> {
    return (await this.store.peek(this.key(resolver), this.rule, this.now())).remaining;
  }
}
