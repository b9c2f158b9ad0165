import type { Config } from '../../config/types';
import { ClientLimiter, type RateDecision } from '../../ratelimit/client-limiter';
import { createRateLimitHeaderWriter } from '../../ratelimit/headers';
import { StoreUnavailableError } from '../../ratelimit/failover-store';
import { InFlight, type InFlightCaps } from '../../ratelimit/in-flight';
import type { LimiterStore } from '../../ratelimit/limiter-store';
import { DEFAULT_PLAN } from '../../ratelimit/plans';
import type { RateLimitConfig } from '../../ratelimit/rate-limit-config';
import type { Answer } from '../../util/answer';
import type { Exchange } from '../exchange';
import type { StageRefusal } from '../refusal';
import type { AuthRefusal, Principal } from './authenticate';

export type AdmitRefusal = Extract<StageRefusal, { code: 'rate-limited' | 'too-many-concurrent' | 'overloaded' | 'invalid-api-key' | 'rate-limit-store-unavailable' }>;

// A shared store that cannot be reached with NETTOOLS_REDIS_FAILURE=closed: 503, never unlimited. Any
// other failure stays an error (a fault of the request: a logged 500).
function unreachable(err: Error): AdmitRefusal | Error {
  if (err instanceof StoreUnavailableError) return { code: 'rate-limit-store-unavailable', retryAfterSeconds: err.retryAfterSeconds };
  return err;
}

// A decision's callback that answers `done` with `f`'s verdict on it, or the store's failure as above;
// a throw in `f` (a bug) is passed on as an error, so that a store never sees its callback throw.
function verdict<D, V>(done: Answer<V | AdmitRefusal>, f: (decision: D) => V | AdmitRefusal): Answer<D> {
  return (decision) => {
    let answer: V | AdmitRefusal | Error;
    try {
      answer = decision instanceof Error ? unreachable(decision) : f(decision);
    } catch (err) {
      answer = err instanceof Error ? err : new Error(String(err));
    }
    done(answer);
  };
}

// What admission answers per plan, the anonymous `default` one included.
interface Policy {
  rate: RateLimitConfig;
  inFlight: number;
  writeHeaders: ReturnType<typeof createRateLimitHeaderWriter>;
}

export type DecisionListener = (plan: string, outcome: 'admitted' | AdmitRefusal['code']) => void;

// Who may start a tool request now: the concurrency caps first (a refusal there costs no token),
// then the principal's token bucket. Every answer, refusals included, carries the rate-limit headers
// of the principal's plan. A request let in holds a concurrency slot until `settled` is called.
export class Admission {
  readonly limiter: ClientLimiter;
  readonly inFlight: InFlightCaps;
  private readonly pruneTimer: NodeJS.Timeout;
  private readonly policies = new Map<string, Policy>();

  constructor(
    config: Config,
    shared: { store?: LimiterStore | undefined; inFlight?: InFlightCaps | undefined } = {},
    private readonly onDecision: DecisionListener = () => {},
  ) {
    const { store } = shared;
    this.limiter = new ClientLimiter({ max: config.rateLimitCacheMax, ...(store ? { store } : {}) });
    this.inFlight = shared.inFlight ?? new InFlight({ perClient: config.maxInFlightPerClient, global: config.maxInFlight });
    const policy = (name: string, rate: RateLimitConfig, inFlight: number | null): Policy => ({
      rate,
      inFlight: inFlight ?? config.maxInFlightPerClient,
      writeHeaders: createRateLimitHeaderWriter({ policy: name, limit: rate.capacity, windowMs: rate.windowMs }),
    });
    this.policies.set(DEFAULT_PLAN, policy(DEFAULT_PLAN, config.rateLimit, null));
    for (const plan of config.plans.values()) this.policies.set(plan.name, policy(plan.name, plan.rate, plan.inFlight));
    // Full buckets are dropped in the background; unref'd so it never keeps the process alive.
    this.pruneTimer = setInterval(() => this.limiter.prune(), 60_000).unref();
  }

  private policy(plan: string): Policy {
    return this.policies.get(plan) as Policy;
  }

  // null: admitted, through `done` (at once for a store in this process, later for a shared one). `key`
  // is the principal's bucket and in-flight key, `plan` its plan (`default` for an address).
  admit(ex: Exchange, key: string, plan: string, done: Answer<AdmitRefusal | null>): void {
    const policy = this.policy(plan);
    const busy = this.inFlight.acquire(key, policy.inFlight);
    if (busy !== null) {
      return this.limiter.peek(key, ex.startedAt, policy.rate, verdict(done, (decision: RateDecision) => {
        policy.writeHeaders(decision, ex);
        this.onDecision(plan, busy.code);
        return busy;
      }));
    }
    ex.slotKey = key;
    this.limiter.check(key, ex.startedAt, policy.rate, verdict(done, (decision: RateDecision) => this.decided(ex, plan, policy, decision)));
  }

  // A bad key costs its sender a token of the address's anonymous bucket, so keys cannot be tried at
  // line rate; once that bucket is empty the answer is 429, as for any other request.
  refuseKey(ex: Exchange, clientKey: string, refusal: AuthRefusal, done: Answer<AdmitRefusal>): void {
    const policy = this.policy(DEFAULT_PLAN);
    this.limiter.check(clientKey, ex.startedAt, policy.rate, verdict(done, (decision: RateDecision): AdmitRefusal => {
      policy.writeHeaders(decision, ex);
      const outcome: AdmitRefusal = decision.allowed ? refusal : rateLimited(decision);
      this.onDecision(DEFAULT_PLAN, outcome.code);
      return outcome;
    }));
  }

  // One more token of the principal's bucket, for a streamed measurement that pays as it goes. Its
  // response head is out already, so nothing is written here. null: paid.
  spend(key: string, plan: string, done: Answer<AdmitRefusal | null>): void {
    this.limiter.check(key, undefined, this.policy(plan).rate, verdict(done, (d: RateDecision) => (d.allowed ? null : rateLimited(d))));
  }

  // The principal's budget now, spending nothing.
  peek(ex: Exchange, who: Principal, done: Answer<{ decision: RateDecision; inFlightLimit: number } | AdmitRefusal>): void {
    const policy = this.policy(who.plan);
    this.limiter.peek(who.key, ex.startedAt, policy.rate, verdict(done, (decision: RateDecision) => ({ decision, inFlightLimit: policy.inFlight })));
  }

  private decided(ex: Exchange, plan: string, policy: Policy, decision: RateDecision): AdmitRefusal | null {
    policy.writeHeaders(decision, ex);
    if (decision.allowed) {
      this.onDecision(plan, 'admitted');
      return null;
    }
    this.onDecision(plan, 'rate-limited');
    return rateLimited(decision);
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

function rateLimited(decision: RateDecision): AdmitRefusal {
  return { code: 'rate-limited', limit: decision.limit, windowMs: decision.windowMs, retryAfterSeconds: decision.retryAfterSeconds };
}
