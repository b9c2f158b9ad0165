import { monotonicMs } from '../util/clock';
import type { Answer } from '../util/answer';
import type { BucketAnswer, LimiterStore } from './limiter-store';
import type { BucketParams } from './token-bucket';

// How many queries a second this server sends to each resolver, whoever asks: a public resolver
// throttles, then blocks, an address that asks too much, and then nobody gets an answer. One token
// bucket per resolver in a LimiterStore (shared by every worker thread, or instance, that shares the
// store), refilling `qps` tokens a second. The budget answers as its store does (util/answer.ts): a
// store in this process at once, with no promise per resolver on the path of every DNS request.

// What the budget needs of a resolver (a configured ResolverConfig is one).
export interface BudgetedResolver {
  readonly id: string;
  readonly address: string;
  readonly port: number;
}

export type ResolverReservation = { granted: true } | { granted: false; resolver: string; retryAfterSeconds: number };

const GRANTED: ResolverReservation = { granted: true };
const IGNORED = (): void => {};

export type Costs = ReadonlyArray<readonly [BudgetedResolver, number]>;

export class ResolverBudget {
  private readonly rule: BucketParams;

  constructor(
    private readonly store: LimiterStore,
    readonly qps: number,
    private readonly now: () => number = monotonicMs,
  ) {
    this.rule = { capacity: qps, windowMs: 1000 };
  }

  private key(resolver: BudgetedResolver): string {
    return `resolver:${resolver.address}:${resolver.port}`;
  }

  // All of `costs` (resolver, queries) or nothing: every resolver's share is looked at before any is spent.
  reserve(costs: Costs, done: Answer<ResolverReservation>): void {
    this.look(costs, 0, this.now(), done);
  }

  // Peeks the i-th resolver, then the next from its answer (a bucket in debt refuses: the debt and the
  // cost must both be repaid first); once all have room, takes from each.
  private look(costs: Costs, i: number, at: number, done: Answer<ResolverReservation>): void {
    if (i === costs.length) return this.takeAll(costs, 0, at, done);
    const [resolver, cost] = costs[i] as Costs[number];
    if (cost > this.qps) return done({ granted: false, resolver: resolver.id, retryAfterSeconds: 1 });
    this.store.peek(this.key(resolver), this.rule, at, (seen) => {
      if (seen instanceof Error) return done(seen);
      const short = this.shortOf(resolver, cost, seen);
      if (short) return done(short);
      this.look(costs, i + 1, at, done);
    });
  }

  private shortOf(resolver: BudgetedResolver, cost: number, seen: BucketAnswer): ResolverReservation | null {
    if (seen.remaining >= cost) return null;
    return { granted: false, resolver: resolver.id, retryAfterSeconds: Math.max(1, Math.ceil((cost - seen.remaining) / this.qps)) };
  }

  private takeAll(costs: Costs, i: number, at: number, done: Answer<ResolverReservation>): void {
    if (i === costs.length) return done(GRANTED);
    const [resolver, cost] = costs[i] as Costs[number];
    this.store.take(this.key(resolver), this.rule, cost, at, (taken) => {
      if (taken instanceof Error) return done(taken);
      const refused = this.refusedBy(resolver, taken);
      if (refused) return done(refused);
      this.takeAll(costs, i + 1, at, done);
    });
  }

  private refusedBy(resolver: BudgetedResolver, taken: BucketAnswer): ResolverReservation | null {
    return taken.allowed ? null : { granted: false, resolver: resolver.id, retryAfterSeconds: Math.max(1, taken.retryAfterSeconds) };
  }

  // Packets sent beyond the reservation (a resend, a TCP fall-back) are charged in full afterwards:
  // they were sent already. The bucket may go into debt for them (one window's worth at most); while it
  // is, reserve() refuses, with a Retry-After that covers the debt too: the next requests pay, and over
  // time a resolver is sent no more than `qps` a second on average.
  charge(resolver: BudgetedResolver, sends: number): void {
    if (sends <= 0) return;
    // A shared store that fails here costs only the accounting of a packet already sent.
    this.store.spend(this.key(resolver), this.rule, sends, this.now(), IGNORED);
  }

  // Queries each resolver may still be sent this second (for the metrics); negative: resends owed.
  remaining(resolver: BudgetedResolver, done: Answer<number>): void {
    this.store.peek(this.key(resolver), this.rule, this.now(), (seen) => done(seen instanceof Error ? seen : seen.remaining));
  }
}
