import type { Config } from '../config/types';
import type { ToolMetrics } from '../observability/tool-metrics';
import type { DnsRequest, PingRequest } from '../schemas/requests';
import { openResolverClient, type ResolverClient } from '../engines/dns';
import { createDnsTool } from './dns';
import { createPingTool } from './ping/ping-tool';
import type { ToolHandler } from './tool';

// A tool either runs, or says plainly why this server cannot run it (answered as 503 engine-unavailable).
export type ToolSlot<Request> =
  | { handler: ToolHandler<Request>; info: Record<string, unknown>; close(): void }
  | { unavailable: string };

export interface ToolSet {
  ping: ToolSlot<PingRequest>;
  dns: ToolSlot<DnsRequest>;
  close(): void;
}

// Checks a resolved ping target against the operator's target policy; returns the refused range's name.
export type TargetCheck = (address: string) => string | null;

export interface ToolDeps {
  config: Config;
  checkTarget: TargetCheck;
  metrics?: ToolMetrics;
}

export function createTools(deps: ToolDeps): ToolSet {
  // One DNS engine serves the dns tool and ping's host names alike.
  let resolverClient: ResolverClient | null = null;
  let dnsFailure = '';
  try {
    resolverClient = openResolverClient();
  } catch (err) {
    dnsFailure = `the DNS engine could not start: ${(err as Error).message}`;
  }
  const ping: ToolSlot<PingRequest> = createPingTool({ ...deps, resolverClient });
  const dns: ToolSlot<DnsRequest> = resolverClient
    ? createDnsTool({ config: deps.config, client: resolverClient, metrics: deps.metrics })
    : { unavailable: dnsFailure };
  if (resolverClient) deps.metrics?.watchDnsEngine(() => resolverClient.counters());
  return {
    ping,
    dns,
    close() {
      for (const slot of [ping, dns] as ToolSlot<unknown>[]) if ('close' in slot) slot.close();
      resolverClient?.close();
    },
  };
}
