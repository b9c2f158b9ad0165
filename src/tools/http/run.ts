import { performance } from 'node:perf_hooks';
import pkg from '../../../package.json';
import { roundMicros } from '../../engines/icmp/stats';
import { refusePort } from '../../policy/port-policy';
import { createTargetCheck } from '../../policy/target-policy';
import type { TargetBudget } from '../../ratelimit/target-budget';
import { connectionBudget } from '../connection-budget';
import { promised, type Answer } from '../../util/answer';
import type { CancelToken } from '../../util/cancel';
import { parseHttpUrl, type HttpUrl } from '../../validation/http-url';
import type { HostTarget } from '../../validation/names';
import { failed, succeeded, type Outcome, type ToolFailure } from '../outcome';
import { TargetPath, type Reached, type TargetTerms } from '../target-path';
import type { TargetCheck, ToolDeps, ToolEvents, ToolSlot } from '../tool';
import { connectionRefusal } from '../tls/run';
import { openTrustStore } from '../tls/trust-store';
import { openHttpExchanger, type HttpExchanger } from '../../engines/http/exchanger';
import type { Address } from '../../net/address';
import { exchange, type ExchangeOptions, type Exchanged } from './exchange';
import { httpOutcomeLabel, watchHttp } from './metrics';
import type { ExchangeFacts, HttpRequest, HttpResult, HttpTimings, RedirectHop } from './types';

export interface HttpToolOptions {
  checkTarget?: TargetCheck; // default: the operator's target policy
}

const ABORTED: ToolFailure = { code: 'aborted', detail: 'the caller went away before the check finished' };
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const RESOLVE_MS = 2000; // what the other tools give the resolvers (resolve-host.ts)

// One exchange's target on the path: the URL's host, resolved, checked and paid for like tls's.
interface HopRequest {
  host: string;
  target: HostTarget;
  ipVersion?: 4 | 6;
  resolveTimeoutMs: number;
  url: HttpUrl;
  check: HttpRequest;
}

// What stays the same over a check's exchanges.
interface CheckContext {
  request: HttpRequest;
  cancel: CancelToken;
  events: ToolEvents | undefined;
  deadline: number; // performance.now() by which the whole check ends
  redirects: RedirectHop[];
}

export function openHttp(deps: ToolDeps, options: HttpToolOptions = {}): ToolSlot<HttpRequest, HttpResult> {
  const trust = openTrustStore(deps.config.tlsCaFile);
  if (typeof trust === 'string') return { unavailable: trust };
  const { config } = deps;
  const path = new TargetPath(deps, null, options.checkTarget ?? createTargetCheck({ allowPrivateTargets: config.allowPrivateTargets }));
  // The tcp and tls checks' budget, the same key: every exchange, redirects too, is one more connection.
  const budget = connectionBudget(deps);
  let engine: HttpExchanger;
  try {
    engine = openHttpExchanger(trust.pem);
  } catch (err) {
    return { unavailable: `the HTTP engine could not start: ${err instanceof Error ? err.message : String(err)}` };
  }
  const checker = new HttpChecker(path, httpTerms(budget), engine, trust.anchors, { bodyMaxBytes: config.httpBodyMaxBytes, userAgent: userAgent(config.httpContact), checkPorts: config.checkPorts });
  const requests = deps.registry === null ? null : watchHttp(deps.registry);
  return {
    run: async (request, cancel, events) => {
      const outcome = await checker.check(request, cancel, events);
      requests?.inc(httpOutcomeLabel(outcome));
      return outcome;
    },
    info: { bodyMaxBytes: config.httpBodyMaxBytes, userAgent: userAgent(config.httpContact) },
    close: () => engine.close(),
  };
}

function userAgent(contact: string): string {
  return contact === '' ? `nettools/${pkg.version}` : `nettools/${pkg.version} (+${contact})`;
}

interface CheckerSettings {
  bodyMaxBytes: number;
  userAgent: string;
  checkPorts: readonly number[];
}

class HttpChecker {
  constructor(
    private readonly path: TargetPath,
    private readonly terms: TargetTerms<HopRequest>,
    private readonly engine: HttpExchanger,
    private readonly anchors: ReadonlySet<string>,
    private readonly settings: CheckerSettings,
  ) {}

  async check(request: HttpRequest, cancel: CancelToken, events: ToolEvents | undefined): Promise<Outcome<HttpResult>> {
    const startedAt = new Date().toISOString();
    const t0 = performance.now();
    const ctx: CheckContext = { request, cancel, events, deadline: t0 + request.timeoutMs, redirects: [] };
    // The schema's format has accepted the URL.
    let url = parseHttpUrl(request.url) as HttpUrl;
    for (;;) {
      const reached = await this.reach(ctx, url);
      if (!reached.ok) return failed(reached.failure);
      const { target } = reached;
      const exchanged = await promised((done: Answer<Exchanged | null>) => exchange(this.engine, this.exchangeOptions(ctx, url, target.address), cancel, done));
      if (exchanged === null) return failed(ABORTED);
      const { facts } = exchanged;
      // The target's time: its resolution and the exchange; nettools' own admission between them is not.
      const timings: HttpTimings = { resolveMs: target.resolveMs, ...facts.timings, totalMs: roundMicros(target.resolveMs + exchanged.elapsedMs) };
      const next = this.redirectTo(ctx, url, facts);
      const hop = { url: url.href, address: target.shown, ipVersion: target.address.family };
      if (next === null || typeof next === 'string') {
        const location = next ?? facts.location;
        return succeeded(finalResult(ctx, { ...facts, ...(location !== undefined ? { location } : {}) }, { ...hop, port: url.port, timings }, { startedAt, t0 }));
      }
      const redirect: RedirectHop = { ...hop, status: facts.status as number, location: next.href, timings };
      ctx.redirects.push(redirect);
      events?.item('redirect', redirect);
      url = next;
    }
  }

  // The port policy first (nothing resolved or spent for a refused port), then the target path. Only the
  // first exchange tells the `start` event; a redirect's refusal names the redirect.
  private async reach(ctx: CheckContext, url: HttpUrl): Promise<Reached> {
    const redirected = ctx.redirects.length > 0;
    const host = url.target.value;
    const portRefused = refusePort(url.port, this.settings.checkPorts);
    if (portRefused !== null) return { ok: false, failure: forbidden(ctx, url, { code: 'target-forbidden', detail: portRefused, address: host, range: 'port' }) };
    // The resolvers too are within the check's time: a redirect's host is asked for at most what is left.
    const resolveTimeoutMs = Math.max(1, Math.min(RESOLVE_MS, Math.round(ctx.deadline - performance.now())));
    const hop: HopRequest = { host, target: url.target, url, check: ctx.request, resolveTimeoutMs, ...(ctx.request.ipVersion !== undefined ? { ipVersion: ctx.request.ipVersion } : {}) };
    const reached = await this.path.reach(hop, ctx.cancel, redirected ? undefined : ctx.events, this.terms, 1);
    if (reached.ok || reached.failure.code !== 'target-forbidden') return reached;
    return { ok: false, failure: forbidden(ctx, url, reached.failure) };
  }

  private exchangeOptions(ctx: CheckContext, url: HttpUrl, address: Address): ExchangeOptions {
    const { request } = ctx;
    const suffix = request.headers['User-Agent'];
    const headers: Record<string, string> = {
      ...(request.headers.Accept !== undefined ? { Accept: request.headers.Accept } : {}),
      ...(request.headers['Accept-Language'] !== undefined ? { 'Accept-Language': request.headers['Accept-Language'] } : {}),
      'User-Agent': suffix === undefined ? this.settings.userAgent : `${this.settings.userAgent} ${suffix}`,
      'Accept-Encoding': 'identity',
      Connection: 'close',
    };
    const timeoutMs = Math.max(1, Math.round(ctx.deadline - performance.now()));
    return { address, url, method: request.method, headers, timeoutMs, verify: request.verify, anchors: this.anchors, bodyMaxBytes: this.settings.bodyMaxBytes };
  }

  // Where a redirect answer sends the check: the next URL; a string: a Location not followed (not http or
  // https, or the number of redirects asked is reached), as it resolves; null: no redirect.
  private redirectTo(ctx: CheckContext, url: HttpUrl, facts: ExchangeFacts): HttpUrl | string | null {
    if (facts.status === undefined || !REDIRECTS.has(facts.status) || facts.location === undefined) return null;
    if (facts.response !== undefined) return null;
    const next = parseHttpUrl(facts.location, url.href);
    if (typeof next === 'string' || ctx.redirects.length >= ctx.request.followRedirects || performance.now() >= ctx.deadline) return resolvedLocation(facts.location, url.href);
    return next;
  }
}

function resolvedLocation(location: string, base: string): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}

// A refused address or port: after a redirect, the problem names the redirect's URL and carries the
// redirects followed before it.
function forbidden(ctx: CheckContext, url: HttpUrl, failure: Extract<ToolFailure, { code: 'target-forbidden' }>): ToolFailure {
  if (ctx.redirects.length === 0) return failure;
  return { ...failure, detail: `the redirect to ${url.href} is refused: ${failure.detail}`, url: url.href, redirects: ctx.redirects };
}

function finalResult(ctx: CheckContext, facts: ExchangeFacts, last: { url: string; address: string; ipVersion: 4 | 6; port: number; timings: HttpTimings }, start: { startedAt: string; t0: number }): HttpResult {
  const { timings: _exchangeTimings, ...rest } = facts;
  return {
    url: ctx.request.url,
    finalUrl: last.url,
    method: ctx.request.method,
    address: last.address,
    ipVersion: last.ipVersion,
    port: last.port,
    ...rest,
    timings: last.timings,
    redirects: ctx.redirects,
    durationMs: roundMicros(performance.now() - start.t0),
    startedAt: start.startedAt,
  };
}

function httpTerms(budget: TargetBudget): TargetTerms<HopRequest> {
  return {
    budget,
    refusal: connectionRefusal,
    aborted: ABORTED,
    settings: (hop) => ({ url: hop.url.href, port: hop.url.port, method: hop.check.method, followRedirects: hop.check.followRedirects, timeoutMs: hop.check.timeoutMs }),
    scope: (hop) => String(hop.url.port),
  };
}
