// The one way a measurement tool (ping, traceroute, and next mtr or a request run at another location)
// gets from a request's host to a target it may measure now: the host resolved through the configured
// resolvers, the target policy and a socket of its family, its cost paid from the target's budget, then
// the `start` event. Tools differ only in their engine call and their summary, the way blackbox_exporter's
// probers share one chooseProtocol.
import { performance } from 'node:perf_hooks';
import { roundMicros } from '../engines/icmp/stats';
import type { SocketKinds } from '../engines/icmp/types';
import type { Address } from '../net/address';
import type { TargetBudget, TargetReservation } from '../ratelimit/target-budget';
import { promised, type Answer } from '../util/answer';
import type { CancelToken } from '../util/cancel';
import type { HostTarget } from '../validation/names';
import { failed, type FailureCode, type Outcome, type ToolFailure } from './outcome';
import { resolveHost } from './resolve-host';
import { refuseTarget, storeFailure } from './target-admission';
import type { TargetCheck, ToolDeps, ToolEvents } from './tool';
import type { Upstream } from './upstream';

// What a measurement request carries of its target: the host as asked, parsed once by normalize.
export interface TargetRequest {
  host: string;
  target: HostTarget;
  ipVersion?: 4 | 6;
  resolveTimeoutMs?: number; // what the resolvers may take at most; 2 s by default (resolve-host.ts)
}

// What every tool on this path may fail with before it measures anything (for the OpenAPI document).
export const TARGET_FAILURES: readonly FailureCode[] = ['host-not-found', 'upstream-failed', 'upstream-timeout', 'target-forbidden', 'target-rate-limited', 'upstream-busy', 'store-unavailable', 'invalid-field', 'engine-unavailable', 'engine-busy', 'internal-error'];

// A refused reservation: what the tool's words describe.
export type RefusedReservation = Exclude<TargetReservation, { granted: true }>;

// One tool's terms on the path, made once when the tool opens: which budget of the target it spends, the
// words it refuses with, what it calls a caller gone away, and its settings as its `start` event shows
// them (between the target's fields and the timings every tool's start event carries).
export interface TargetTerms<Req> {
  budget: TargetBudget;
  refusal(reservation: RefusedReservation, address: string): ToolFailure;
  aborted: ToolFailure;
  settings(request: Req): Record<string, unknown>;
  // Where a budget is kept per address and something more (tcp: per address and port): that more.
  scope?(request: Req): string;
}

// A target resolved, admitted and paid for.
export interface Target {
  address: Address; // what the engine takes
  shown: string; // the address as the response shows it
  startedAt: string; // when the request started (ISO 8601)
  t0: number; // performance.now() then: durations count from it
  resolveMs: number;
}

export type Reached = { ok: true; target: Target } | { ok: false; failure: ToolFailure };

export class TargetPath {
  private readonly client: Upstream | null;

  constructor(
    private readonly deps: ToolDeps,
    private readonly kinds: SocketKinds | null, // null: no ICMP socket needed (target-admission.ts)
    private readonly checkTarget: TargetCheck,
  ) {
    this.client = 'upstream' in deps.dns ? deps.dns.upstream : null;
  }

  // The request's target, or why not. `units`: what the first payment takes of the target's budget;
  // `refused`: the request's own refusal (a check of its settings), told once its host resolves.
  async reach<Req extends TargetRequest>(request: Req, cancel: CancelToken, events: ToolEvents | undefined, terms: TargetTerms<Req>, units: number, refused: ToolFailure | null = null): Promise<Reached> {
    const startedAt = new Date().toISOString();
    const t0 = performance.now();
    const { ipVersion, resolveTimeoutMs } = request;
    const resolved = await resolveHost(request.target, { client: this.client, resolvers: this.deps.config.resolvers, ...(ipVersion !== undefined ? { ipVersion } : {}), ...(resolveTimeoutMs !== undefined ? { timeoutMs: resolveTimeoutMs } : {}), cancel });
    const resolveMs = roundMicros(performance.now() - t0);
    if (cancel.aborted) return { ok: false, failure: terms.aborted };
    if (!resolved.ok) return resolved;
    if (refused !== null) return { ok: false, failure: refused };
    const { host } = resolved;
    const forbidden = refuseTarget(host, this.kinds, this.checkTarget);
    if (forbidden !== null) return { ok: false, failure: forbidden };
    const scope = terms.scope?.(request);
    const unpaid = await promised((done: Answer<ToolFailure | null>) => pay(terms, host.address, units, done, scope));
    if (unpaid !== null) return { ok: false, failure: unpaid };
    const target: Target = { address: host.address, shown: host.shown, startedAt, t0, resolveMs };
    events?.start({ host: request.host, address: target.shown, ipVersion: target.address.family, ...terms.settings(request), resolveMs, startedAt });
    return { ok: true, target };
  }

  // The first payment of a measurement made elsewhere (see Elsewhere): the address paid for, or null when
  // this server could not resolve the host (nothing paid here).
  async reserveElsewhere<Req extends TargetRequest>(request: Req, cancel: CancelToken, terms: TargetTerms<Req>, units: number): Promise<{ ok: true; address: Address | null } | { ok: false; failure: ToolFailure }> {
    const ipVersion = request.ipVersion;
    const resolved = await resolveHost(request.target, { client: this.client, resolvers: this.deps.config.resolvers, ...(ipVersion !== undefined ? { ipVersion } : {}), cancel });
    if (cancel.aborted) return { ok: false, failure: terms.aborted };
    if (!resolved.ok) return { ok: true, address: null };
    const { address } = resolved.host;
    const scope = terms.scope?.(request);
    const unpaid = await promised((done: Answer<ToolFailure | null>) => pay(terms, address, units, done, scope));
    return unpaid === null ? { ok: true, address } : { ok: false, failure: unpaid };
  }
}

// A measurement another location makes (an agent, for a request with `locations`), as this server's
// budgets see it: the target as this server resolves it pays the units the location will spend, from this
// server's budget, so that N locations cannot send a target N times what one may. `run` hands the request
// on; a stream that pays as it goes pays each later round here too. A name this server cannot resolve is
// paid for at the location alone, and the target policy is the location's own: an agent's operator may
// allow it addresses this server refuses.
export type Elsewhere<Req, Res> = (request: Req, cancel: CancelToken, events: ToolEvents | undefined, run: (events?: ToolEvents) => Promise<Outcome<Res>>) => Promise<Outcome<Res>>;

// `first`: the units of the first payment; `later(request, round)`: of round 1, 2, ... of a stream.
export function measuredElsewhere<Req extends TargetRequest, Res>(path: TargetPath, terms: TargetTerms<Req>, first: (request: Req) => number, later: (request: Req, round: number) => number): Elsewhere<Req, Res> {
  return async (request, cancel, events, run) => {
    const reserved = await path.reserveElsewhere(request, cancel, terms, first(request));
    if (!reserved.ok) return failed(reserved.failure);
    const { address } = reserved;
    if (address === null || events === undefined) return run(events);
    let round = 1;
    const scope = terms.scope?.(request);
    // Named one by one: the caller's events may be a class's instance, whose methods a spread leaves behind.
    const paying: ToolEvents = {
      start: (info) => events.start(info),
      item: (name, data, toJson) => events.item(name, data, toJson),
      spend: (done) => payAgain(events, terms, address, later(request, round++), done, scope),
    };
    return run(paying);
  };
}

// `units` of the target's budget (shared by every caller), or why not; `scope`: see TargetTerms.scope.
export function pay<Req>(terms: TargetTerms<Req>, address: Address, units: number, done: Answer<ToolFailure | null>, scope?: string): void {
  const where = scope === undefined ? address.text : `${address.text} port ${scope}`;
  terms.budget.reserve(address, units, (reservation) => done(reservation instanceof Error ? storeFailure(reservation) : reservation.granted ? null : terms.refusal(reservation, where)), scope);
}

// A later payment of a measurement that pays as it goes (a long streamed ping's round): one token of
// the caller's bucket and `units` of the target's budget, in one step.
export function payAgain<Req>(events: ToolEvents, terms: TargetTerms<Req>, address: Address, units: number, done: Answer<ToolFailure | null>, scope?: string): void {
  events.spend((paid) => (paid !== null ? done(paid) : pay(terms, address, units, done, scope)));
}
