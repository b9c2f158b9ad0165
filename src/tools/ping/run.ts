import { performance } from 'node:perf_hooks';
import { IcmpError } from '../../engines/icmp/errors';
import { roundMicros } from '../../engines/icmp/stats';
import { pingInRounds, type RoundsOutcome } from '../../engines/icmp/rounds';
import type { EchoReply, Pinger, EchoOptions } from '../../engines/icmp/types';
import { createTargetCheck } from '../../policy/target-policy';
import { TargetBudget } from '../../ratelimit/target-budget';
import type { CancelToken } from '../../util/cancel';
import type { Answer } from '../../util/answer';
import { engineSession } from '../engine-session';
import { engineFailure } from '../icmp-engine';
import { failed, succeeded, type Outcome, type ToolFailure } from '../outcome';
import { measuredElsewhere, payAgain, TargetPath, type Elsewhere, type RefusedReservation, type Target, type TargetTerms } from '../target-path';
import { beyondSeriesLimit } from '../stream-limit';
import type { TargetCheck, ToolDeps, ToolEvents, ToolSlot } from '../tool';
import { icmpToolSlot } from '../icmp-tool-slot';
import type { PingRequest, PingResult } from './types';
import { watchPinger, type PingMetrics } from './metrics';
import { replyJson } from './reply-json';

export interface PingToolOptions {
  checkTarget?: TargetCheck; // default: the operator's target policy
}

const ABORTED: ToolFailure = { code: 'aborted', detail: 'the caller went away before the measurement finished' };

export function openPing(deps: ToolDeps, options: PingToolOptions = {}): ToolSlot<PingRequest, PingResult> {
  if ('unavailable' in deps.icmp) return deps.icmp;
  const { pinger } = deps.icmp;
  const metrics = deps.registry === null ? null : watchPinger(deps.registry, () => pinger.stats());
  const { measure, elsewhere } = createMeasure(deps, pinger, options.checkTarget ?? createTargetCheck({ allowPrivateTargets: deps.config.allowPrivateTargets }), metrics);
  return icmpToolSlot(pinger, measure, metrics, elsewhere, true);
}

type Measure = (request: PingRequest, cancel: CancelToken, events?: ToolEvents) => Promise<Outcome<PingResult>>;

function createMeasure(deps: ToolDeps, pinger: Pinger, checkTarget: TargetCheck, metrics: PingMetrics | null): { measure: Measure; elsewhere: Elsewhere<PingRequest, PingResult> } {
  const { config } = deps;
  const path = new TargetPath(deps, pinger.socketKinds, checkTarget);
  // Across all clients: many clients together must not turn this server into a flood source.
  const terms = pingTerms(new TargetBudget({ limit: config.targetEchoesPerSecond, ...(deps.targetStore ? { store: deps.targetStore } : {}) }));
  // Elsewhere, as here: a round's echoes from the target's budget, the first round at admission.
  const elsewhere = measuredElsewhere<PingRequest, PingResult>(path, terms, (r) => Math.min(ROUND_ECHOES, r.count), (r, round) => Math.min(ROUND_ECHOES, r.count - round * ROUND_ECHOES));
  const measure: Measure = async (request, cancel, events) => {
    const tooLong = events === undefined ? null : beyondSeriesLimit(request, config.streamMaxSeconds);
    const reached = await path.reach(request, cancel, events, terms, Math.min(ROUND_ECHOES, request.count), tooLong);
    if (!reached.ok) return failed(reached.failure);
    const { target } = reached;
    const options = { address: target.address, count: request.count, intervalMs: request.intervalMs, timeoutMs: request.timeoutMs, size: request.size };
    const pay = events === undefined ? NOTHING_TO_PAY : payRound(events, terms, target);
    const echo = await echoes(pinger, options, cancel, pay, events && ((reply) => events.item('reply', reply, replyJson)));
    if (!echo.ok) return failed('stopped' in echo ? echo.stopped : 'fault' in echo ? rethrow(echo.fault) : engineFailure(echo.error, ABORTED));
    const { packets, rtt } = 'echo' in echo ? echo.echo : echo.totals;
    // A long ping's summary lists no replies: each was streamed as it was decided.
    const replies = 'echo' in echo ? { replies: echo.echo.replies } : {};
    if ('totals' in echo) metrics?.echoes(echo.totals.statuses);
    const durationMs = roundMicros(performance.now() - target.t0);
    return succeeded({ host: request.host, address: target.shown, ipVersion: target.address.family, reachable: packets.received > 0, packets, rtt, ...replies, resolveMs: target.resolveMs, durationMs, startedAt: target.startedAt });
  };
  return { measure, elsewhere };
}

// Ping's terms on the target path: echoes of the target's echo budget.
function pingTerms(budget: TargetBudget): TargetTerms<PingRequest> {
  return {
    budget,
    refusal: echoRefusal,
    aborted: ABORTED,
    settings: (request) => ({ count: request.count, intervalMs: request.intervalMs, timeoutMs: request.timeoutMs, size: request.size }),
  };
}

// A ping pays per round of ten echoes: the first round at admission (the request's token, and its echoes
// from the target's budget), each later one as it starts (a long streamed ping).
const ROUND_ECHOES = 10;

type RoundPayment = (round: number, count: number, done: Answer<ToolFailure | null>) => void;

// A JSON ping has one round (at most ten echoes): nothing is asked after admission.
const NOTHING_TO_PAY: RoundPayment = (_round, _count, done) => done(null);

// One token of the caller's bucket and the round's echoes from the target's budget.
function payRound(events: ToolEvents, terms: TargetTerms<PingRequest>, target: Target): RoundPayment {
  return (_round, count, done) => payAgain(events, terms, target.address, count, done);
}

// A payment that failed with an error is a bug: it fails the request as any throw in a tool does (a logged 500).
function rethrow(fault: Error): never {
  throw fault;
}

// The echoes in rounds, or why not; stopped when the caller goes away.
// `onEcho`: each echo as soon as its outcome is decided.
function echoes(pinger: Pinger, options: EchoOptions, cancel: CancelToken, pay: RoundPayment, onEcho?: (echo: EchoReply) => void): Promise<RoundsOutcome<ToolFailure>> {
  return engineSession<RoundsOutcome<ToolFailure>>(cancel, callerGone, (end) => pingInRounds(pinger, options, ROUND_ECHOES, pay, end, onEcho));
}

function callerGone(): { ok: false; error: IcmpError } {
  return { ok: false, error: new IcmpError('aborted', 'the caller went away') };
}

function echoRefusal(reservation: RefusedReservation, address: string): ToolFailure {
  if (reservation.reason === 'over-budget') {
    // No wait would help: this server never sends more than `limit` echoes a second to one address.
    const message = `must be <= ${reservation.limit} on this server (its per-target echo budget)`;
    return { code: 'invalid-field', detail: `count is above this server's per-target echo budget`, fields: [{ path: ['count'], message }] };
  }
  const retry = reservation.retryAfterSeconds;
  return { code: 'target-rate-limited', detail: `${address} already receives ${reservation.limit} echo requests per second from this server (its per-target echo budget); retry after ${retry} s`, retryAfterSeconds: retry };
}
