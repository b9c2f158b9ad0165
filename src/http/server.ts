import type { Config } from '../config/types';
import { loadDocsAssets, type DocsAsset } from '../docs/docs-assets';
import { loadPageAssets } from '../page/page-assets';
import type { KeyRing } from '../keys/key-ring';
import type { Hub, LocationEntry } from '../locations/hub';
import type { Places } from '../locations/measure-at';
import { NO_LOCATION_METRICS, type LocationMetrics } from '../locations/metrics';
import type { LocationRelay } from '../locations/relay';
import { HUB_SELF_DEFAULT } from '../locations/protocol';
import { mountAgentsSocket } from './agents-socket';
import type { Logger } from '../log';
import type { HttpMetrics } from '../observability/metrics';
import type { InFlightCaps } from '../ratelimit/in-flight';
import type { LimiterStore } from '../ratelimit/limiter-store';
import type { OpenTool } from '../tools/registry';
import { Deadlines } from './deadlines';
import { dispatch } from './dispatch';
import { Exchange } from './exchange';
import { LinkedList } from '../util/linked-list';
import { peerText } from './peer';
import { Admission } from './pipeline/admit';
import type { PipelineContext } from './pipeline/context';
import { refuse } from './refusal';
import { requestId } from './request-id';
import { OpenStreams } from './open-streams';
import { StreamMetrics } from './stream-metrics';
import { buildRoutes } from './routes';
import { loadNativeUws, type HttpRequest, type HttpResponse, type TemplatedApp, type us_listen_socket } from './uws';

export interface ServerDeps {
  config: Config;
  tools: readonly OpenTool[];
  openapi: string; // the serialised document
  log: Logger;
  metrics: HttpMetrics;
  store?: LimiterStore; // where client buckets live; in this process by default
  inFlight?: InFlightCaps; // the concurrency caps; this thread's own by default
  keys?: KeyRing | null; // the API keys in force; absent or null: keys are off
  metricsText?: () => Promise<string>; // the /metrics body; this server's registry by default
  health?: () => object; // the /health body; {"status":"ok"} by default
  hub?: Hub | null; // the agents' side; absent or null: this server accepts no agents
  self?: string; // this server's location name (NETTOOLS_LOCATION, default local)
  locationMetrics?: LocationMetrics; // what requests with `locations` count; nothing by default
  relay?: LocationRelay | null; // other hubs' agents, through Redis
  locations: () => LocationEntry[]; // the GET /api/locations body
}

export interface NettoolsServer {
  listen(): Promise<number>;
  // Stops accepting, lets in-flight requests finish for at most graceMs, resolves when none is left or time is up.
  shutdown(graceMs: number): Promise<{ unfinished: number }>;
  inFlight(): number;
}

// The live page, or none (GET / is then a 404) when its script was not built: the API works without it.
function pageFiles(log: Logger): Map<string, DocsAsset> {
  const { files, missing } = loadPageAssets();
  if (missing !== null) log.log('warn', 'the live page is not served: its script is missing', { missing });
  return files;
}

// Every response's first header: its id, which requestId() keeps to characters a header value may hold.
const REQUEST_ID_LINE = '\r\nX-Request-Id: ';

// Wiring and lifecycle: the request pipeline itself is in routes, tool-route and pipeline/.
export function createServer(deps: ServerDeps): NettoolsServer {
  const { config, log, metrics } = deps;
  const uws = loadNativeUws();
  const app = uws.App();
  const admission = new Admission(config, { store: deps.store, inFlight: deps.inFlight }, (plan, outcome) => metrics.planDecision(plan, outcome));
  const places = placesOf(deps);
  const ctx: PipelineContext = { config, admission, deadlines: new Deadlines(), log, keys: deps.keys ?? null, streams: new StreamMetrics(metrics.registry), openStreams: new OpenStreams(), places };
  const metricsText = deps.metricsText ?? (() => metrics.registry.metrics());
  const routes = buildRoutes(ctx, { tools: deps.tools, openapi: deps.openapi, docs: loadDocsAssets(), page: pageFiles(log), health: deps.health ?? (() => ({ status: 'ok' })), metrics: config.metrics ? { text: metricsText, contentType: metrics.registry.contentType } : null, log, locations: deps.locations });
  const { limiter, inFlight } = ctx.admission;
  // With worker threads these are read from shared memory: every thread sees the same value.
  const shared = deps.inFlight === undefined ? 'sum' : 'max';
  metrics.gaugeFrom('nettools_rate_limit_clients', 'Client buckets held in the rate-limit cache.', () => limiter.size, shared);
  metrics.gaugeFrom('nettools_admitted_in_flight', 'Tool and probe requests holding a concurrency slot now.', () => inFlight.total, shared);
  metrics.gaugeFrom('nettools_admitted_clients', 'Clients with at least one request holding a concurrency slot now.', () => inFlight.clients, shared);
  const life = lifecycle(ctx);
  const settled = (ex: Exchange) => {
    ctx.admission.settled(ex);
    const durationMs = performance.now() - ex.startedAt;
    metrics.requestSettled(ex.route, ex.method, ex.aborted ? 'aborted' : ex.status, durationMs / 1000, ex.problemCode);
    life.finished(ex);
    if (log.enabled('info')) logRequest(log, ex, durationMs);
  };
  const fault = (ex: Exchange, err: unknown) => requestFault(log, ex, err);
  const handle = (res: HttpResponse, req: HttpRequest) => {
    metrics.requestStarted();
    const ex = new Exchange(res, req.getCaseSensitiveMethod(), req.getUrl(), peerText(res.getRemoteAddress()), performance.now(), settled, fault);
    life.started(ex);
    try {
      ex.requestId = requestId(req.getHeader('x-request-id'));
      ex.lines(REQUEST_ID_LINE + ex.requestId);
      if (life.draining) ex.closeConnection = true;
      dispatch(routes, ex, req);
    } catch (err) {
      ex.fail(err);
    }
  };
  serveAgents(app, deps.hub ?? null, metrics);
  app.any('/*', handle);
  return {
    listen: () => life.listen(app, uws, config),
    shutdown: (graceMs) => life.shutdown(uws, graceMs),
    inFlight: () => life.inFlight,
  };
}

// Where a request with `locations` runs: this server's own tools, and the hub's agents if it has any.
function placesOf(deps: ServerDeps): Places {
  const hub = deps.hub ?? null;
  const self = deps.self ?? HUB_SELF_DEFAULT;
  const byName = new Map(deps.tools.map((open) => [open.tool.name, open]));
  const relay = deps.relay ?? null;
  const agents = () => {
    const here = hub?.list() ?? [];
    return relay === null ? here : [...here, ...relay.remote().filter((e) => !hub?.has(e.name))];
  };
  return { self, max: deps.config.maxLocationsPerRequest, hub, relay, metrics: deps.locationMetrics ?? NO_LOCATION_METRICS, tool: (name) => byName.get(name), candidates: () => ({ self, agents: agents() }) };
}

// The agents' WebSocket, before the catch-all route; the gauge reads 0 on a server that takes no agents.
function serveAgents(app: TemplatedApp, hub: Hub | null, metrics: HttpMetrics): void {
  metrics.gaugeFrom('nettools_agents_connected', 'Agents connected to this hub and listed by GET /api/locations.', () => hub?.connected ?? 0);
  if (hub !== null) mountAgentsSocket(app, hub);
}

// A throw or rejection on a request's path is a bug in this server, never the client's doing: it is
// logged with the request's id, and the request gets a 500 internal-error if nothing was sent yet.
function requestFault(log: Logger, ex: Exchange, err: unknown): void {
  log.log('error', 'request failed', { requestId: ex.requestId, path: ex.path, error: (err as Error | undefined)?.stack ?? String(err) });
  if (ex.open) refuse(ex, { code: 'internal-error', detail: 'unexpected error; this is a bug' });
}

function logRequest(log: Logger, ex: Exchange, durationMs: number): void {
  log.log('info', 'request', {
    requestId: ex.requestId,
    method: ex.method,
    path: ex.path,
    status: ex.aborted ? null : ex.status,
    aborted: ex.aborted || undefined,
    durationMs: Math.round(durationMs * 1000) / 1000,
    client: ex.client,
    keyId: ex.keyId ?? undefined,
  });
}

type Uws = ReturnType<typeof loadNativeUws>;

// uSockets' listen options (LIBUS_LISTEN_DEFAULT: SO_REUSEPORT; LIBUS_LISTEN_EXCLUSIVE_PORT: without it).
// Both builds' binaries take (host, port, options, callback); the Node 20 build's types lack that form.
const LISTEN_SHARED = 0;
const LISTEN_EXCLUSIVE = 1;
type ListenWithOptions = (host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void) => unknown;

const cutByShutdown = (ex: Exchange) => refuse(ex, { code: 'shutting-down', detail: 'the server is shutting down and this request did not finish within its grace period; send it again' });

// Answers every request still in flight at the grace's end, and says how many there were.
function cutUnfinished(live: LinkedList<Exchange>): number {
  const unfinished = live.size;
  for (const ex of live.drain()) {
    ex.inFlightNode = null;
    ex.endForShutdown(cutByShutdown);
  }
  return unfinished;
}

// Requests in flight, the listen socket, and a drain that waits for the last request to finish.
function lifecycle(ctx: PipelineContext) {
  let listenSocket: us_listen_socket | null = null;
  let drained: (() => void) | null = null;
  const live = new LinkedList<Exchange>();
  const state = {
    draining: false,
    get inFlight(): number {
      return live.size;
    },
    started: (ex: Exchange) => void (ex.inFlightNode = live.push(ex)),
    finished: (ex: Exchange) => {
      if (ex.inFlightNode !== null) live.remove(ex.inFlightNode);
      ex.inFlightNode = null;
      if (state.draining && live.size === 0) drained?.();
    },
    listen: (app: ReturnType<Uws['App']>, uws: Uws, config: Config) =>
      new Promise<number>((resolve, reject) => {
        // One thread listens exclusively, so nothing can join its port later; worker threads share theirs
        // through SO_REUSEPORT, and the supervisor saw it free first (./port-owner.ts).
        (app.listen as unknown as ListenWithOptions).call(app, config.host, config.port, config.workers > 1 ? LISTEN_SHARED : LISTEN_EXCLUSIVE, (socket) => {
          if (!socket) return reject(new Error(`cannot listen on ${config.host}:${config.port}`));
          listenSocket = socket;
          resolve(uws.us_socket_local_port(socket as never));
        });
      }),
    shutdown(uws: Uws, graceMs: number): Promise<{ unfinished: number }> {
      state.draining = true;
      if (listenSocket) uws.us_listen_socket_close(listenSocket);
      listenSocket = null;
      // A stream may run for an hour: each ends now with a shutting-down problem event, not at the grace's end.
      ctx.openStreams.stopAll();
      // Timers stop only once nothing is in flight: a body still arriving keeps its deadline while draining.
      const stopTimers = <T>(outcome: T): T => {
        ctx.admission.close();
        ctx.deadlines.close();
        return outcome;
      };
      if (state.inFlight === 0) return Promise.resolve(stopTimers({ unfinished: 0 }));
      return new Promise((resolve) => {
        // The last responses are written from TurnEnd's check callback; Node's immediates run after uWS's
        // own check in that turn, so resolving from one lets uWS write and free what they closed first.
        const resolveAfterWrites = (unfinished: number) => setImmediate(() => resolve(stopTimers({ unfinished })));
        // What the grace did not see finish (a long measurement, or a bug that left a request waiting)
        // is answered 503 shutting-down on a connection that closes: an open connection would keep a
        // worker thread, and so the process, alive for ever.
        const timer = setTimeout(() => {
          drained = null;
          resolveAfterWrites(cutUnfinished(live));
        }, graceMs);
        drained = () => {
          clearTimeout(timer);
          resolveAfterWrites(0);
        };
      });
    },
  };
  return state;
}
