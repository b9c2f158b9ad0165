import { ConfigError } from './config/errors';
import type { Config } from './config/types';
import { createServer, type NettoolsServer } from './http/server';
import { KeyRing } from './keys/key-ring';
import { AgentKeyRing } from './keys/agent-key-ring';
import { Hub, type LocationEntry } from './locations/hub';
import { compileOutputChecks } from './locations/agent-output';
import { NO_LOCATION_METRICS, watchLocations, type LocationMetrics } from './locations/metrics';
import { LocationRelay } from './locations/relay';
import { RedisTransport } from './locations/redis-transport';
import { ThreadTransport } from './locations/thread-transport';
import { HUB_SELF_DEFAULT } from './locations/protocol';
import { openSharedBudgets } from './shared-budgets';
import type { Logger } from './log';
import type { InFlightCaps } from './ratelimit/in-flight';
import type { LimiterStore } from './ratelimit/limiter-store';
import type { SharedCap } from './ratelimit/shared-cap';
import { uncaughtErrors } from './observability/last-resort';
import { createHttpMetrics, disabledHttpMetrics, type HttpMetrics } from './observability/metrics';
import { buildOpenApi } from './openapi/document';
import { openTools, TOOLS, type OpenTools } from './tools/registry';
import type { Tool } from './tools/tool';
import pkg from '../package.json';

export interface App {
  server: NettoolsServer;
  tools: OpenTools;
  keys: KeyRing | null; // null: keys are off
  agents: { keys: AgentKeyRing; hub: Hub } | null; // null: this server accepts no agents
  metrics: HttpMetrics;
  // Resolves when the shared store (if any) is connected, or after a second without it; listen after.
  ready(): Promise<void>;
  // Closes what the server used (engines, the shared store's connection) once it has drained.
  close(): Promise<void>;
}

// How long start-up waits for the shared store before serving without it (from local buckets, or 503).
const STORE_READY_MS = 1000;

export interface AppOptions {
  tools?: ReadonlyArray<Tool<any, any>>; // the registry's list unless a caller brings its own
  store?: LimiterStore; // where client buckets live; in this process unless given
  targetStore?: LimiterStore; // where per-target echo budgets live; in this process unless given
  resolverStore?: LimiterStore; // where per-resolver query budgets live; in this process unless given
  inFlight?: InFlightCaps; // the concurrency caps; this thread's own unless given
  traceCap?: SharedCap; // traces in flight; this thread's own unless given
  agentCount?: SharedCap; // agents' connections against NETTOOLS_MAX_AGENTS; this thread's own unless given
  metricsText?: () => Promise<string>; // the /metrics body: the whole process's, when this is one of several threads
}

// Everything the process runs, wired from one Config; main.ts adds only signals and exit codes.
export function createApp(config: Config, log: Logger, options: AppOptions = {}): App {
  const tools = options.tools ?? TOOLS;
  const keys = openKeys(config);
  const metrics = config.metrics ? createHttpMetrics() : disabledHttpMetrics();
  metrics.counterFrom('nettools_uncaught_errors_total', 'Throws and rejections no request guard caught, logged by the last-resort handler; the thread served on.', uncaughtErrors);
  // With Redis, this instance's own stores (or the worker threads' shared ones) are what it falls back on.
  const shared = config.redisUrl === null ? null : openSharedBudgets(config, log, metrics, { ...(options.store ? { clients: options.store } : {}), ...(options.targetStore ? { targets: options.targetStore } : {}) });
  const store = shared?.clients ?? options.store;
  const targets = shared?.targets ?? options.targetStore;
  const stores = { ...(targets ? { targets } : {}), ...(options.resolverStore ? { resolvers: options.resolverStore } : {}), ...(options.traceCap ? { traces: options.traceCap } : {}) };
  const open = openTools(config, config.metrics ? metrics.registry : null, tools, stores);
  const openapi = JSON.stringify(buildOpenApi(tools, config.resolvers.map((r) => r.id), pkg.version));
  const { inFlight, metricsText } = options;
  const health = shared === null ? undefined : () => ({ status: 'ok', store: { kind: 'redis', state: shared.state() } });
  const locationMetrics = config.metrics ? watchLocations(metrics.registry) : NO_LOCATION_METRICS;
  const agents = openAgents(config, log, tools, locationMetrics, options.agentCount);
  const self: LocationEntry = {
    name: config.location ?? HUB_SELF_DEFAULT,
    labels: config.locationLabels,
    tools: open.list.filter(({ slot }) => !('unavailable' in slot)).map(({ tool }) => tool.name),
    version: pkg.version,
    connectedSince: new Date().toISOString(),
  };
  const relay = openRelay(config, agents?.hub ?? null, log);
  if (relay !== null) agents?.hub.shareWith((location) => relay.has(location));
  const locations = () => {
    const here = agents?.hub.list() ?? [];
    const there = relay?.remote().filter((e) => !agents?.hub.has(e.name) && e.name !== self.name) ?? [];
    return [self, ...[...here, ...there].sort((a, b) => (a.name < b.name ? -1 : 1))];
  };
  const server = createServer({ config, tools: open.list, openapi, log, metrics, keys, hub: agents?.hub ?? null, self: self.name, locationMetrics, relay, locations, ...(store ? { store } : {}), ...(inFlight ? { inFlight } : {}), ...(metricsText ? { metricsText } : {}), ...(health ? { health } : {}) });
  return {
    server,
    tools: open,
    keys,
    agents,
    metrics,
    ready: async () => shared?.ready(STORE_READY_MS),
    async close() {
      open.close();
      await relay?.close();
      await shared?.close();
    },
  };
}

// With Redis, every hub lists and can use every hub's agents, the worker threads of each instance being
// hubs of their own there. Without it, the worker threads of a hub share their agents in the process.
function openRelay(config: Config, hub: Hub | null, log: Logger): LocationRelay | null {
  if (config.redisUrl !== null) return new LocationRelay({ transport: new RedisTransport(config.redisUrl), hub, log });
  if (config.workers > 1 && hub !== null) return new LocationRelay({ transport: new ThreadTransport(), hub, log, everyMs: THREAD_RELAY_EVERY_MS });
  return null;
}

// A location connected to one worker is listed by the others within this; a message in the process is cheap.
const THREAD_RELAY_EVERY_MS = 250;

// A keys file that cannot be read or parsed stops the server at start, as a bad setting does.
function openKeys(config: Config): KeyRing | null {
  if (config.apiKeysFile === null) return null;
  const opened = KeyRing.open(config.apiKeysFile, config.plans);
  if (!opened.ok) throw new ConfigError('NETTOOLS_API_KEYS_FILE', opened.message);
  return opened.value;
}

// As with API keys, an agent keys file that cannot be read stops the server at start.
function openAgents(config: Config, log: Logger, tools: ReadonlyArray<Tool<any, any>>, metrics: LocationMetrics, count?: SharedCap): App['agents'] {
  if (config.agentKeysFile === null) return null;
  const opened = AgentKeyRing.open(config.agentKeysFile);
  if (!opened.ok) throw new ConfigError('NETTOOLS_AGENT_KEYS_FILE', opened.message);
  const keys = opened.value;
  const hub = new Hub({ keys, self: config.location ?? HUB_SELF_DEFAULT, maxAgents: config.maxAgents, timeoutMs: config.agentTimeoutMs, log, checks: compileOutputChecks(tools), metrics, ...(count ? { count } : {}) });
  return { keys, hub };
}
