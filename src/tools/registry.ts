import type { Registry } from 'prom-client';
import type { Config } from '../config/types';
import { openResolverClient } from '../engines/dns';
import { windowShare } from '../engines/dns/native';
import { coalesce } from '../engines/dns/coalescing-client';
import { ResolverBudget } from '../ratelimit/resolver-budget';
import type { LimiterStore } from '../ratelimit/limiter-store';
import { SharedCap, sharedCapMemory } from '../ratelimit/shared-cap';
import { MemoryLimiterStore } from '../ratelimit/memory-limiter-store';
import { DEFAULT_TARGET_CACHE_MAX } from '../ratelimit/target-budget';
import { createSchemaCompiler, type Validate } from '../validation/validator';
import { locatable } from './locations-field';
import { dnsTool } from './dns';
import { openIcmpEngine } from './icmp-engine';
import { mtrTool } from './mtr';
import { tcpTool } from './tcp';
import { tlsTool } from './tls';
import { httpTool } from './http';
import { openTcpEngine } from './tcp-engine';
import { pingTool } from './ping';
import { tracerouteTool } from './traceroute';
import type { Tool, ToolDeps, ToolSlot } from './tool';
import { Upstream } from './upstream';
import { AsnCache } from './asn-lookup';

// Every tool the server offers. Adding a tool: its folder, and one line here.
// eslint-style `any`: the list holds tools of different request and result types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
// Each takes `locations` (tools/locations-field.ts): the same request, measured elsewhere too.
export const TOOLS: ReadonlyArray<Tool<any, any>> = [pingTool, dnsTool, tracerouteTool, mtrTool, tcpTool, tlsTool, httpTool].map(locatable);

// A tool ready to serve: its definition, its request validator and what runs it.
export interface OpenTool<Req = unknown, Res = unknown> {
  tool: Tool<Req, Res>;
  validate: Validate<Req>;
  validateStream: Validate<Req>; // for a request answered as a stream
  slot: ToolSlot<Req, Res>;
}

export interface OpenTools {
  list: readonly OpenTool[];
  close(): void;
}

// Each tool's request validator by tool name, compiled once.
export function requestValidators(resolverIds: readonly string[], tools: ReadonlyArray<Tool<any, any>> = TOOLS): Record<string, Validate<any>> {
  const compile = createSchemaCompiler();
  return Object.fromEntries(tools.map((tool) => [tool.name, compile(tool.requestSchema(resolverIds), tool.normalize)]));
}

// The validator of a streamed request: its own schema where the tool has one, else the JSON request's.
function streamValidator(tool: Tool<any, any>, resolverIds: readonly string[], json: Validate<any>): Validate<any> {
  if (tool.streamRequestSchema === undefined) return json;
  return createSchemaCompiler()(tool.streamRequestSchema(resolverIds), tool.normalize);
}

// Where the budgets shared across requests live; in this thread unless given (worker threads share them).
export interface SharedStores {
  targets?: LimiterStore; // per-target echo budgets
  resolvers?: LimiterStore; // per-resolver query budgets
  traces?: SharedCap; // traces in flight
}

// One DNS engine serves the dns tool and ping's host names alike, through one Upstream: questions in
// flight are shared and each resolver's query budget holds. It is closed after the tools.
function openUpstream(config: Config, registry: Registry | null, store: LimiterStore | undefined): ToolDeps['dns'] {
  try {
    const budget = new ResolverBudget(store ?? new MemoryLimiterStore({ max: Math.max(16, config.resolvers.length * 2) }), config.resolverQps);
    // Every worker thread has an engine of its own: they share each resolver's window between them.
    return { upstream: new Upstream(coalesce(openResolverClient(windowShare(config.workers), config.tlsCaFile)), budget, registry, config.resolvers) };
  } catch (err) {
    return { unavailable: `the DNS engine could not start: ${(err as Error).message}` };
  }
}

// Engines are opened here, once per worker, and closed after every tool: one DNS engine, and one ICMP
// engine (a socket per family) that ping, traceroute and mtr share, so that a raw socket's copy of every ICMP
// packet reaches one engine, which matches it to whichever tool's session sent the echo.
export function openTools(config: Config, registry: Registry | null, tools: ReadonlyArray<Tool<any, any>> = TOOLS, stores: SharedStores = {}): OpenTools {
  const dns = openUpstream(config, registry, stores.resolvers);
  const icmp = openIcmpEngine();
  const tcp = openTcpEngine();
  // One store of per-target budgets and one count of traces in flight for every tool, also in a single
  // thread: traceroute and mtr spend the same trace budget of a destination and the same places.
  const targetStore = stores.targets ?? new MemoryLimiterStore({ max: DEFAULT_TARGET_CACHE_MAX });
  const traceCap = stores.traces ?? new SharedCap(sharedCapMemory(), config.maxTracesInFlight);
  // One ASN cache per worker: traceroute and mtr ask about the same routers.
  const deps: ToolDeps = { config, dns, icmp, tcp, registry, targetStore, traceCap, asnCache: new AsnCache() };
  const ids = config.resolvers.map((r) => r.id);
  const validators = requestValidators(ids, tools);
  const list = tools.map((tool) => {
    const validate = validators[tool.name] as Validate<unknown>;
    return { tool, validate, validateStream: streamValidator(tool, ids, validate) as Validate<unknown>, slot: tool.open(deps) };
  });
  return {
    list,
    close() {
      for (const { slot } of list) if ('close' in slot) slot.close();
      if ('upstream' in dns) dns.upstream.close();
      if ('pinger' in icmp) icmp.pinger.close();
      if ('connector' in tcp) tcp.connector.close();
    },
  };
}
