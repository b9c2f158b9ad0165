import { Gauge, type Registry } from 'prom-client';
import type { ResolverConfig } from '../config/types';
import { PlainCounter } from '../observability/plain-counter';
import type { CoalescingClient } from '../engines/dns/coalescing-client';
import type { ResolverBudget } from '../ratelimit/resolver-budget';
import { promised, type Answer } from '../util/answer';
import type { EngineCounters, RecordType, ResolverQueries, ResolverQuery, SettledEntry } from '../engines/dns/types';
import type { CancelToken } from '../util/cancel';

// The one way the tools reach resolvers: identical questions in flight share one query, and what a
// request would send new is reserved from each resolver's budget before anything is sent. What the
// engine really sent (a resend, a TCP fall-back) is charged when each upstream call's outcome is in,
// once per call, whichever requests still wait for it then.

// `fresh`: the questions this request sends itself (the rest it shares with requests already waiting).
export type Admitted = { ok: true; fresh: ReadonlyMap<ResolverConfig, RecordType[]> } | { ok: false; resolver: string; retryAfterSeconds: number };
export type Asked = { ok: true; results: ResolverQueries[] } | { ok: false; resolver: string; retryAfterSeconds: number };

// What a streamed request hears of its queries: `admitted` once the budgets took them (before anything is
// sent), then each (resolver, type) entry as it settles.
export interface AskProgress {
  admitted(): void;
  entry(settled: SettledEntry): void;
}

export class Upstream {
  private readonly refusals: PlainCounter | null;
  private readonly sent: PlainCounter | null;

  constructor(
    private readonly client: CoalescingClient,
    private readonly budget: ResolverBudget,
    registry: Registry | null,
    resolvers: readonly ResolverConfig[],
  ) {
    this.refusals = registry && new PlainCounter(registry, 'nettools_resolver_budget_refusals_total', 'Requests refused 503 upstream-busy, by the resolver whose budget was spent.', ['resolver']);
    this.sent = registry && new PlainCounter(registry, 'nettools_resolver_queries_sent_total', "Packets sent to each resolver (first sends, resends and TCP fall-backs), every one charged to its budget.", ['resolver']);
    if (registry) this.watchBudgets(registry, resolvers);
    client.onSent((resolver, sends, reserved) => {
      if (sends > 0) this.sent?.inc(resolver.id, '', sends);
      this.budget.charge(resolver, sends - reserved);
    });
  }

  // Reserves what `request` would send new (questions already in flight cost nothing), answering through
  // `done`: at once for a budget kept in this process.
  admit(request: ResolverQuery, done: Answer<Admitted>): void {
    const fresh = this.client.newQuestions(request);
    const costs: Array<[ResolverConfig, number]> = [];
    for (const [resolver, types] of fresh) costs.push([resolver, types.length]);
    this.budget.reserve(costs, (reserved) => {
      if (reserved instanceof Error) return done(reserved);
      if (reserved.granted) return done({ ok: true, fresh });
      this.refusals?.inc(reserved.resolver);
      done({ ok: false, resolver: reserved.resolver, retryAfterSeconds: reserved.retryAfterSeconds });
    });
  }

  // An admitted request's queries (or part of them); `fresh` is what admit reserved for them. `done` is
  // called once with the outcomes and must not throw; `onEntry`: each entry as it settles, before it.
  query(request: ResolverQuery, fresh: ReadonlyMap<ResolverConfig, RecordType[]>, done: (results: ResolverQueries[]) => void, cancel?: CancelToken, onEntry?: (settled: SettledEntry) => void): void {
    this.client.query(request, done, cancel, fresh, onEntry);
  }

  // Admission and launch in the same turn when the budget answers at once: the queries start from the
  // budget's callback itself, so a request that comes a moment later joins this one's questions instead
  // of reserving them too.
  ask(request: ResolverQuery, cancel?: CancelToken, progress?: AskProgress): Promise<Asked> {
    return promised((done: Answer<Asked>) =>
      this.admit(request, (admitted) => {
        if (admitted instanceof Error) return done(admitted);
        if (!admitted.ok) return done(admitted);
        // A throw here would reach the budget's store, not this promise.
        try {
          progress?.admitted();
          this.query(request, admitted.fresh, (results) => done({ ok: true, results }), cancel, progress && ((settled) => progress.entry(settled)));
        } catch (err) {
          done(err instanceof Error ? err : new Error(String(err)));
        }
      }),
    );
  }

  counters(): EngineCounters {
    return this.client.counters();
  }

  close(): void {
    this.client.close();
  }

  private watchBudgets(registry: Registry, resolvers: readonly ResolverConfig[]): void {
    const budget = this.budget;
    new Gauge({
      name: 'nettools_resolver_budget_remaining',
      help: 'Queries each resolver may still be sent this second (NETTOOLS_RESOLVER_QPS a second at most; negative: resends and TCP fall-backs owed).',
      labelNames: ['resolver'],
      // Every worker thread reads the one shared bucket: the threads' readings are not to be summed.
      aggregator: 'max',
      registers: [registry],
      async collect() {
        for (const r of resolvers) this.set({ resolver: r.id }, await promised((done: Answer<number>) => budget.remaining(r, done)));
      },
    });
  }
}
