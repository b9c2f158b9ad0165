import type { DnsRequest, PingRequest } from '../schemas/requests';
import { openResolverClient, type ResolverClient } from '../engines/dns';
import { createDnsTool } from './dns';
import { createPingTool } from './ping/ping-tool';
import type { ToolDeps, ToolSet, ToolSlot } from './tool';

export type { TargetCheck, ToolDeps, ToolSet, ToolSlot } from './tool';


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
