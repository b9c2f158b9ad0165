import { performance } from 'node:perf_hooks';
import type { Registry } from 'prom-client';
import { roundMicros } from '../../engines/icmp/stats';
import { PlainCounter } from '../../observability/plain-counter';
import { refusePort } from '../../policy/port-policy';
import { createTargetCheck } from '../../policy/target-policy';
import type { TargetBudget } from '../../ratelimit/target-budget';
import { connectionBudget } from '../connection-budget';
import type { CancelToken } from '../../util/cancel';
import { failed, succeeded, type Outcome, type ToolFailure } from '../outcome';
import { measuredElsewhere, TargetPath, type RefusedReservation, type TargetTerms } from '../target-path';
import type { TargetCheck, ToolDeps, ToolEvents, ToolSlot } from '../tool';
import { promised, type Answer } from '../../util/answer';
import { handshake, type HandshakeOutcome } from './handshake';
import { openTrustStore } from './trust-store';
import type { TlsRequest, TlsResult } from './types';

export interface TlsToolOptions {
  checkTarget?: TargetCheck; // default: the operator's target policy
}

const ABORTED: ToolFailure = { code: 'aborted', detail: 'the caller went away before the check finished' };

export function openTls(deps: ToolDeps, options: TlsToolOptions = {}): ToolSlot<TlsRequest, TlsResult> {
  const trust = openTrustStore(deps.config.tlsCaFile);
  if (typeof trust === 'string') return { unavailable: trust };
  const { config } = deps;
  const path = new TargetPath(deps, null, options.checkTarget ?? createTargetCheck({ allowPrivateTargets: config.allowPrivateTargets }));
  // The tcp check's budget, the same key: a handshake is one more connection to that address and port.
  const budget = connectionBudget(deps);
  const terms = tlsTerms(budget);
  const requests = deps.registry === null ? null : watchTls(deps.registry);
  const run = async (request: TlsRequest, cancel: CancelToken, events?: ToolEvents): Promise<Outcome<TlsResult>> => {
    const portRefused = refusePort(request.port, config.checkPorts);
    if (portRefused !== null) return failed({ code: 'target-forbidden', detail: portRefused, address: request.host, range: 'port' });
    const reached = await path.reach(request, cancel, events, terms, 1);
    if (!reached.ok) return failed(reached.failure);
    const { target } = reached;
    const serverName = request.serverName ?? (request.target.kind === 'name' ? request.target.value : undefined);
    const options = { address: target.address.text, port: request.port, ...(serverName !== undefined ? { serverName } : {}), timeoutMs: request.timeoutMs, trust };
    const done = await promised((answer: Answer<HandshakeOutcome | null>) => handshake(options, cancel, answer));
    if (done === null) return failed(ABORTED);
    const { status, code, connectMs, handshakeMs, session } = done;
    return succeeded({
      host: request.host,
      address: target.shown,
      ipVersion: target.address.family,
      port: request.port,
      serverName: serverName ?? null,
      status,
      ...(code !== undefined ? { code } : {}),
      ...session,
      timings: { resolveMs: target.resolveMs, ...(connectMs !== undefined ? { connectMs } : {}), ...(handshakeMs !== undefined ? { handshakeMs } : {}) },
      durationMs: roundMicros(performance.now() - target.t0),
      startedAt: target.startedAt,
    });
  };
  return {
    elsewhere: measuredElsewhere<TlsRequest, TlsResult>(path, terms, () => 1, () => 1),
    run: async (request, cancel, events) => {
      const outcome = await run(request, cancel, events);
      requests?.inc(outcome.ok ? outcome.value.status : outcome.failure.code);
      return outcome;
    },
    info: { extraTrustAnchors: config.tlsCaFile ?? 'none' },
    close: () => undefined,
  };
}

type ToolSlotRun = (request: TlsRequest, cancel: import('../../util/cancel').CancelToken) => unknown;

function watchTls(registry: Registry): PlainCounter {
  return new PlainCounter(registry, 'nettools_tls_requests_total', 'TLS check requests by outcome: the status of a check that ran (handshake, refused, ...), or the failure code.', ['outcome']);
}

function tlsTerms(budget: TargetBudget): TargetTerms<TlsRequest> {
  return {
    budget,
    refusal: connectionRefusal,
    aborted: ABORTED,
    settings: (request) => ({ port: request.port, timeoutMs: request.timeoutMs }),
    scope: (request) => String(request.port),
  };
}

export function connectionRefusal(reservation: RefusedReservation, where: string): ToolFailure {
  const retry = reservation.reason === 'over-budget' ? 60 : reservation.retryAfterSeconds;
  return { code: 'target-rate-limited', detail: `${where} already receives ${reservation.limit} connections per minute from this server (its per-target connection budget); retry after ${retry} s`, retryAfterSeconds: retry };
}
