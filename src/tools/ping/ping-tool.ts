import { performance } from 'node:perf_hooks';
import type { ResolverClient } from '../../engines/dns';
import { IcmpError } from '../../engines/icmp/errors';
import { openPinger } from '../../engines/icmp/pinger';
import { roundMicros } from '../../engines/icmp/stats';
import type { Pinger, PingerOptions } from '../../engines/icmp/types';
import { TargetBudget, type Reservation } from '../../ratelimit/target-budget';
import type { PingRequest } from '../../schemas/requests';
import type { ToolDeps, ToolSlot } from '../tool';
import type { ToolResult } from '../tool';
import { resolveHost } from './resolve-host';

export interface PingToolDeps extends ToolDeps {
  resolverClient: ResolverClient | null; // host names are resolved with the service's DNS engine
  pinger?: PingerOptions; // e.g. force a socket kind
}

type PingProblem = 'host-not-found' | 'target-forbidden' | 'engine-unavailable' | 'overloaded' | 'internal-error';

function problem(code: PingProblem, detail: string): ToolResult {
  return { kind: 'problem', code, detail };
}

function engineFailure(err: unknown): ToolResult {
  if (err instanceof IcmpError && err.code === 'ICMP_SEQ_EXHAUSTED') {
    return problem('overloaded', 'every ICMP sequence number is in flight; try again shortly');
  }
  if (err instanceof IcmpError && err.code === 'ICMP_ENGINE_CLOSED') {
    return problem('engine-unavailable', 'the ICMP engine is shutting down');
  }
  if (err instanceof IcmpError && err.code === 'ICMP_ABORTED') {
    return problem('internal-error', 'the request was aborted before the measurement finished');
  }
  return problem('internal-error', err instanceof Error ? err.message : 'the ICMP engine failed');
}

function budgetRefusal(address: string, r: Exclude<Reservation, { granted: true }>): ToolResult {
  if (r.reason === 'over-budget') {
    // No wait would help: this server never sends more than `limit` echoes a second to one address.
    return {
      kind: 'problem',
      code: 'validation-failed',
      detail: 'the request body does not match this server\'s limits; see errors',
      extensions: { errors: [{ pointer: '/count', message: `must be <= ${r.limit} on this server (its per-target echo budget)` }] },
    };
  }
  return {
    kind: 'problem',
    code: 'target-rate-limited',
    detail: `${address} already receives ${r.limit} echo requests per second from this server; retry after ${r.retryAfterSeconds} s`,
    retryAfterSeconds: r.retryAfterSeconds,
  };
}

export function createPingTool(deps: PingToolDeps): ToolSlot<PingRequest> {
  const { config, checkTarget } = deps;
  let pinger: Pinger;
  try {
    pinger = openPinger(deps.pinger);
  } catch (err) {
    return { unavailable: `the ICMP engine could not start: ${err instanceof Error ? err.message : String(err)}` };
  }
  const kinds = pinger.socketKinds;
  // Across all clients: many clients together must not turn this server into a flood source.
  const budget = new TargetBudget({ echoesPerSecond: config.targetEchoesPerSecond });
  if (kinds.v4 === null && kinds.v6 === null) {
    pinger.close();
    return {
      unavailable:
        `no ICMP socket opens (IPv4: ${kinds.reasons.v4}; IPv6: ${kinds.reasons.v6}); ` +
        'run as root or widen net.ipv4.ping_group_range',
    };
  }

  deps.metrics?.watchPinger(() => pinger.stats());

  const measure = async (request: PingRequest, signal: AbortSignal): Promise<ToolResult> => {
    const startedAt = new Date();
    const t0 = performance.now();
    const resolved = await resolveHost(request.host, {
      client: deps.resolverClient,
      resolvers: config.resolvers,
      ...(request.ipVersion !== undefined ? { ipVersion: request.ipVersion } : {}),
      signal,
    });
    const resolveMs = roundMicros(performance.now() - t0);
    if (signal.aborted) return problem('internal-error', 'the request was aborted before the measurement began');
    if (!resolved.ok) return problem('host-not-found', resolved.reason);
    const { address, family } = resolved.host;
    if (!config.allowPrivateTargets) {
      const range = checkTarget(address);
      if (range !== null) return problem('target-forbidden', `${address} is in the refused range ${range}`);
    }
    if ((family === 4 ? kinds.v4 : kinds.v6) === null) {
      const why = family === 4 ? kinds.reasons.v4 : kinds.reasons.v6;
      return problem('engine-unavailable', `no ICMP socket for IPv${family} on this server: ${why}`);
    }
    const reservation = budget.reserve(address, request.count);
    if (!reservation.granted) return budgetRefusal(address, reservation);
    try {
      const result = await pinger.ping(
        {
          address,
          family,
          count: request.count,
          intervalMs: request.intervalMs,
          timeoutMs: request.timeoutMs,
          size: request.size,
        },
        signal,
      );
      return {
        kind: 'ok',
        body: {
          host: request.host,
          address,
          ipVersion: family,
          reachable: result.packets.received > 0,
          packets: result.packets,
          rtt: result.rtt,
          replies: result.replies,
          resolveMs,
          durationMs: roundMicros(performance.now() - t0),
          startedAt: startedAt.toISOString(),
        },
      };
    } catch (err) {
      return engineFailure(err);
    }
  };

  const handler = async (request: PingRequest, signal: AbortSignal): Promise<ToolResult> => {
    const result = await measure(request, signal);
    deps.metrics?.pingFinished(result);
    return result;
  };

  return {
    handler,
    info: {
      socketKinds: { v4: kinds.v4, v6: kinds.v6 },
      ...(Object.keys(kinds.reasons).length > 0 ? { reasons: kinds.reasons } : {}),
    },
    close: () => pinger.close(),
  };
}
