import { performance } from 'node:perf_hooks';
import { roundMicros } from '../../engines/icmp/stats';
import type { TcpConnector } from '../../engines/tcp/connector';
import { refusePort } from '../../policy/port-policy';
import { createTargetCheck } from '../../policy/target-policy';
import type { TargetBudget } from '../../ratelimit/target-budget';
import { connectionBudget } from '../connection-budget';
import type { Answer } from '../../util/answer';
import type { CancelToken } from '../../util/cancel';
import { engineSession } from '../engine-session';
import { failed, succeeded, type Outcome, type ToolFailure } from '../outcome';
import { payAgain, TargetPath, type RefusedReservation, type Target, type TargetTerms, measuredElsewhere, type Elsewhere } from '../target-path';
import { beyondSeriesLimit } from '../stream-limit';
import type { TargetCheck, ToolDeps, ToolEvents, ToolSlot } from '../tool';
import { watchTcp, type TcpMetrics } from './metrics';
import { connectSeries, type RoundPayment, type SeriesOptions, type SeriesOutcome } from './series';
import type { TcpAttempt, TcpRequest, TcpResult } from './types';

export interface TcpToolOptions {
  checkTarget?: TargetCheck; // default: the operator's target policy
}

const ABORTED: ToolFailure = { code: 'aborted', detail: 'the caller went away before the check finished' };

// A check pays per round of ten attempts: the first at admission, each later one as it starts.
const ROUND_ATTEMPTS = 10;

export function openTcp(deps: ToolDeps, options: TcpToolOptions = {}): ToolSlot<TcpRequest, TcpResult> {
  if (deps.tcp === undefined) return { unavailable: 'no TCP engine was opened on this server' };
  if ('unavailable' in deps.tcp) return deps.tcp;
  const { connector } = deps.tcp;
  const metrics = deps.registry === null ? null : watchTcp(deps.registry);
  const { measure, elsewhere } = createMeasure(deps, connector, options.checkTarget ?? createTargetCheck({ allowPrivateTargets: deps.config.allowPrivateTargets }), metrics);
  return {
    elsewhere,
    run: async (request, cancel, events) => {
      const outcome = await measure(request, cancel, events);
      metrics?.finished(outcome);
      return outcome;
    },
    info: {},
    close: () => undefined,
  };
}

type Measure = (request: TcpRequest, cancel: CancelToken, events?: ToolEvents) => Promise<Outcome<TcpResult>>;

function createMeasure(deps: ToolDeps, connector: TcpConnector, checkTarget: TargetCheck, metrics: TcpMetrics | null): { measure: Measure; elsewhere: Elsewhere<TcpRequest, TcpResult> } {
  const { config } = deps;
  // No ICMP socket is needed: a TCP socket of either family opens per attempt.
  const path = new TargetPath(deps, null, checkTarget);
  // Across all clients: many clients together must not turn this server into a connection flood.
  const budget = connectionBudget(deps);
  const terms = tcpTerms(budget);
  // Elsewhere, as here: a round's attempts from the address and port's budget, the first at admission.
  const elsewhere = measuredElsewhere<TcpRequest, TcpResult>(path, terms, (r) => Math.min(ROUND_ATTEMPTS, r.count), (r, round) => Math.min(ROUND_ATTEMPTS, r.count - round * ROUND_ATTEMPTS));
  const measure: Measure = async (request, cancel, events) => {
    // Refused before anything is resolved or spent: the port alone decides it.
    const portRefused = refusePort(request.port, config.checkPorts);
    if (portRefused !== null) return failed({ code: 'target-forbidden', detail: portRefused, address: request.host, range: 'port' });
    const tooLong = events === undefined ? null : beyondSeriesLimit(request, config.streamMaxSeconds);
    const reached = await path.reach(request, cancel, events, terms, Math.min(ROUND_ATTEMPTS, request.count), tooLong);
    if (!reached.ok) return failed(reached.failure);
    const { target } = reached;
    const options: SeriesOptions = { address: target.address, port: request.port, count: request.count, intervalMs: request.intervalMs, timeoutMs: request.timeoutMs };
    const pay = events === undefined ? NOTHING_TO_PAY : payRound(events, terms, target, request.port);
    const series = await engineSession<SeriesOutcome>(cancel, callerGone, (end) => connectSeries(connector, options, ROUND_ATTEMPTS, pay, end, events && ((a: TcpAttempt) => events.item('attempt', a))));
    if (!series.ok) return failed('stopped' in series ? series.stopped : rethrow(series.fault));
    const { tally, results } = series;
    if (results === null) metrics?.attempts(tally.statuses);
    const durationMs = roundMicros(performance.now() - target.t0);
    return succeeded({
      host: request.host,
      address: target.shown,
      ipVersion: target.address.family,
      port: request.port,
      connected: tally.connected > 0,
      attempts: tally.attempts(),
      connectMs: tally.connectMs(),
      ...(results !== null ? { results } : {}),
      resolveMs: target.resolveMs,
      durationMs,
      startedAt: target.startedAt,
    });
  };
  return { measure, elsewhere };
}

// The caller went away: the series is stopped (its connection closed) and the check ends so.
function callerGone(): SeriesOutcome {
  return { ok: false, stopped: ABORTED };
}

function tcpTerms(budget: TargetBudget): TargetTerms<TcpRequest> {
  return {
    budget,
    refusal: connectionRefusal,
    aborted: ABORTED,
    settings: (request) => ({ port: request.port, count: request.count, intervalMs: request.intervalMs, timeoutMs: request.timeoutMs }),
    scope: (request) => String(request.port),
  };
}

const NOTHING_TO_PAY: RoundPayment = (_round, _count, done) => done(null);

// One token of the caller's bucket and the round's attempts from the target's budget.
function payRound(events: ToolEvents, terms: TargetTerms<TcpRequest>, target: Target, port: number): RoundPayment {
  return (_round, count, done: Answer<ToolFailure | null>) => payAgain(events, terms, target.address, count, done, String(port));
}

function rethrow(fault: Error): never {
  throw fault;
}

function connectionRefusal(reservation: RefusedReservation, where: string): ToolFailure {
  if (reservation.reason === 'over-budget') {
    const message = `must be <= ${reservation.limit} on this server (its per-target connection budget)`;
    return { code: 'invalid-field', detail: `count is above this server's per-target connection budget`, fields: [{ path: ['count'], message }] };
  }
  const retry = reservation.retryAfterSeconds;
  return { code: 'target-rate-limited', detail: `${where} already receives ${reservation.limit} connections per minute from this server (its per-target connection budget); retry after ${retry} s`, retryAfterSeconds: retry };
}
