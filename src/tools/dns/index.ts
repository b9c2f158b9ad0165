import { performance } from 'node:perf_hooks';
import type { Config, ResolverConfig } from '../../config/types';
import type { FieldError } from '../../http/problems';
import type { DnsRequest } from '../../schemas/requests';
import type { ResolverClient, ResolverQueries } from '../../engines/dns';
import type { ToolMetrics, ToolResult, ToolSlot } from '../tool';
import { anyAnswered, isConsistent, mergeRecords } from './merge';

export interface DnsToolDeps {
  config: Config;
  client: ResolverClient; // shared with ping's host-name resolution; its owner closes it
  metrics?: ToolMetrics | undefined;
}

// The request names resolvers by id. Through HTTP and /probe the schema (built from the configured ids)
// has refused unknown ones already; this check keeps the tool safe when it is called directly.
// Returned in configured order, whatever order the request used.
function chooseResolvers(
  configured: ResolverConfig[],
  ids: string[] | undefined,
): { resolvers: ResolverConfig[] } | { errors: FieldError[] } {
  if (ids === undefined) return { resolvers: configured };
  const known = new Set(configured.map((r) => r.id));
  const errors: FieldError[] = [];
  ids.forEach((id, i) => {
    if (!known.has(id)) errors.push({ pointer: `/resolvers/${i}`, message: `unknown resolver id "${id}"` });
  });
  if (errors.length > 0) return { errors };
  const wanted = new Set(ids);
  return { resolvers: configured.filter((r) => wanted.has(r.id)) };
}

function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function resolverReport(results: ResolverQueries[]) {
  return results.map(({ resolver, queries }) => ({ id: resolver.id, address: resolver.address, queries }));
}

export async function runDns(
  client: ResolverClient,
  config: Config,
  request: DnsRequest,
  signal: AbortSignal,
): Promise<ToolResult> {
  const chosen = chooseResolvers(config.resolvers, request.resolvers);
  if ('errors' in chosen) {
    return {
      kind: 'problem',
      code: 'validation-failed',
      detail: 'resolvers must name configured resolvers',
      extensions: { errors: chosen.errors },
    };
  }
  const started = performance.now();
  const results = await client.query(
    { domain: request.domain, types: request.types, resolvers: chosen.resolvers, timeoutMs: request.timeoutMs },
    signal,
  );
  const durationMs = roundMs(performance.now() - started);
  const resolvers = resolverReport(results);
  if (!anyAnswered(results)) {
    return {
      kind: 'problem',
      code: 'upstream-timeout',
      detail: `no resolver answered any query for ${request.domain} within ${request.timeoutMs} ms`,
      extensions: { resolvers, durationMs },
    };
  }
  return {
    kind: 'ok',
    body: {
      domain: request.domain,
      records: mergeRecords(results, request.types),
      consistent: isConsistent(results, request.types),
      resolvers,
      durationMs,
    },
  };
}

export function createDnsTool({ config, client, metrics }: DnsToolDeps): ToolSlot<DnsRequest> {
  return {
    handler: async (request, signal) => {
      const result = await runDns(client, config, request, signal);
      metrics?.dnsFinished(result);
      return result;
    },
    info: {
      resolvers: config.resolvers.map((r) => r.id),
      // A getter, so whoever reads info (metrics, diagnostics) sees the engine's counters as they are now.
      get counters() {
        return client.counters();
      },
    },
    close: () => {},
  };
}
