import type { Config } from '../config/types';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../log';
import type { HttpMetrics } from '../observability/metrics';
import type { DnsRequest, PingRequest } from '../schemas/requests';
import type { ToolSet, ToolSlot } from '../tools';
import type { Parsed, RequestValidators } from '../validation/validator';
import { dnsExposition, icmpExposition, PROBE_FAILURES_AS_METRICS } from '../probe/exposition';
import { parseProbeQuery } from '../probe/query';
import type { ToolResult } from '../tools/tool';
import { isJsonContentType, parseJsonObject, readBody } from './body';
import { addCorsHeaders, answerPreflight } from './cors';
import { Admission } from './admission';
import { clientAddress, clientKey } from './client-key';
import { Deadlines } from './deadlines';
import { Exchange, insideUws } from './exchange';
import { peerText } from './peer';
import { sendProblem } from './send-problem';
import { loadNativeUws, type HttpRequest, type HttpResponse, type us_listen_socket } from './uws';

export const BODY_LIMIT = 4096;
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

export interface ServerDeps {
  config: Config;
  tools: ToolSet;
  validators: RequestValidators;
  openapi: string; // the serialised document
  log: Logger;
  metrics: HttpMetrics;
}

export interface NettoolsServer {
  listen(): Promise<number>;
  // Stops accepting, lets in-flight requests finish for at most graceMs, resolves when none is left or time is up.
  shutdown(graceMs: number): Promise<{ unfinished: number }>;
  inFlight(): number;
}

type Handler = (ex: Exchange, req: HttpRequest) => void;
type Method = 'GET' | 'POST' | 'OPTIONS';

interface Route {
  methods: Partial<Record<Method, Handler>>;
  allow: string;
}

export function createServer(deps: ServerDeps): NettoolsServer {
  const { config, tools, validators, log, metrics } = deps;
  const uws = loadNativeUws();
  const app = uws.App();
  let listenSocket: us_listen_socket | null = null;
  let draining = false;
  let inFlight = 0;
  let drained: (() => void) | null = null;
  const admission = new Admission(config);
  const deadlines = new Deadlines();
  metrics.gaugeFrom('nettools_rate_limit_clients', 'Client buckets held in the rate-limit cache.', () => admission.limiter.size);

  const settled = (ex: Exchange) => {
    admission.settled(ex);
    inFlight--;
    const durationMs = performance.now() - ex.startedAt;
    metrics.requestSettled(ex.route, ex.method, ex.aborted ? 'aborted' : ex.status, durationMs / 1000, ex.problemCode);
    if (draining && inFlight === 0) drained?.();
    if (!log.enabled('info')) return;
    log.log('info', 'request', {
      requestId: ex.requestId,
      method: ex.method,
      path: ex.path,
      status: ex.aborted ? null : ex.status,
      aborted: ex.aborted || undefined,
      durationMs: Math.round(durationMs * 1000) / 1000,
      client: ex.client,
    });
  };

  const toolRoute = <R>(slot: () => ToolSlot<R>, validate: (body: Record<string, unknown>) => Parsed<R>): Route => ({
    allow: 'POST, OPTIONS',
    methods: {
      POST: (ex, req) => {
        // uWS invalidates `req` once this function returns: read every header now.
        const contentType = req.getHeader('content-type');
        const contentLength = req.getHeader('content-length');
        addCorsHeaders(ex, config.corsOrigin, req.getHeader('origin') !== '');
        identifyClient(ex, req);
        if (!admission.admit(ex, clientKey(ex.client))) return;
        runTool(ex, contentType, contentLength, slot(), validate);
      },
      OPTIONS: (ex) => answerPreflight(ex, config.corsOrigin, 'POST, OPTIONS'),
    },
  });

  const routes = new Map<string, Route>([
    ['/api/tools/ping', toolRoute<PingRequest>(() => tools.ping, (b) => validators.ping(b))],
    ['/api/tools/dns', toolRoute<DnsRequest>(() => tools.dns, (b) => validators.dns(b))],
    ['/health', { allow: 'GET, HEAD', methods: { GET: (ex) => ex.json(200, { status: 'ok' }) } }],
    ['/openapi.json', { allow: 'GET, HEAD', methods: { GET: (ex) => ex.send(200, 'application/json', deps.openapi) } }],
  ]);
  routes.set('/probe', {
    allow: 'GET, HEAD',
    methods: {
      GET: (ex, req) => {
        const query = req.getQuery() ?? '';
        identifyClient(ex, req);
        if (!admission.admit(ex, clientKey(ex.client))) return;
        void runProbe(ex, query);
      },
    },
  });
  if (config.metrics) {
    routes.set('/metrics', {
      allow: 'GET, HEAD',
      methods: {
        GET: (ex) => {
          metrics.registry.metrics().then(
            (text) => ex.send(200, metrics.registry.contentType, text),
            (err: Error) => {
              log.log('error', 'metrics failed', { error: err.stack });
              sendProblem(ex, 'internal-error', 'metrics collection failed');
            },
          );
        },
      },
    });
  }

  // X-Forwarded-For is read only when some proxy is trusted: otherwise the peer is the client, and
  // nobody pays for walking a header that will never be believed.
  function identifyClient(ex: Exchange, req: HttpRequest): void {
    if (config.trustProxy.length > 0) ex.client = clientAddress(ex.client, forwardedFor(req), config.trustProxy);
  }

  function runTool<R>(
    ex: Exchange,
    contentType: string,
    contentLength: string,
    slot: ToolSlot<R>,
    validate: (body: Record<string, unknown>) => Parsed<R>,
  ): void {
    if (!isJsonContentType(contentType)) {
      return sendProblem(ex, 'unsupported-media-type', `Content-Type must be application/json, got "${contentType || '(none)'}"`);
    }
    if (contentLength !== '' && !(Number(contentLength) <= BODY_LIMIT)) {
      // The rest of the body will not be read: the connection cannot be reused.
      ex.closeConnection = true;
      return sendProblem(ex, 'payload-too-large', `body is limited to ${BODY_LIMIT} bytes`);
    }
    readBody(ex, BODY_LIMIT, config.bodyTimeoutMs, deadlines, (body) => {
      if (body.kind === 'aborted') return;
      if (body.kind === 'timeout') {
        ex.closeConnection = true;
        return sendProblem(ex, 'request-timeout', `the body did not arrive within ${config.bodyTimeoutMs} ms`);
      }
      if (body.kind === 'too-large') {
        ex.closeConnection = true;
        return sendProblem(ex, 'payload-too-large', `body is limited to ${BODY_LIMIT} bytes`);
      }
      // Synchronous up to the tool: a refused body is answered inside uWS's data callback, already corked.
      const json = parseJsonObject(body.bytes);
      if (json.kind === 'invalid') return sendProblem(ex, 'invalid-json', json.detail);
      const parsed = validate(json.value);
      if (!parsed.ok) {
        return sendProblem(ex, 'validation-failed', 'the request body does not match the schema; see errors', { errors: parsed.errors });
      }
      void invoke(ex, slot, parsed.value).then((result) => result && sendToolResult(ex, result));
    });
  }

  // Runs a tool for a validated request; null when the exchange is settled already (unavailable, aborted, failed).
  async function invoke<R>(ex: Exchange, slot: ToolSlot<R>, request: R): Promise<ToolResult | null> {
    if ('unavailable' in slot) {
      sendProblem(ex, 'engine-unavailable', slot.unavailable);
      return null;
    }
    const abort = new AbortController();
    ex.onAbort(() => abort.abort());
    try {
      const result = await slot.handler(request, abort.signal);
      return ex.open ? result : null;
    } catch (err) {
      log.log('error', 'tool failed', { path: ex.path, error: (err as Error).stack ?? String(err) });
      sendProblem(ex, 'internal-error', 'the measurement failed unexpectedly; this is a bug');
      return null;
    }
  }

  function sendToolResult(ex: Exchange, result: ToolResult): void {
    if (result.kind === 'ok') return ex.json(200, result.body);
    if (result.retryAfterSeconds !== undefined) ex.header('Retry-After', String(result.retryAfterSeconds));
    sendProblem(ex, result.code, result.detail, result.extensions);
  }

  async function runProbe(ex: Exchange, query: string): Promise<void> {
    const parsed = parseProbeQuery(query, validators);
    if (!parsed.ok) {
      return sendProblem(ex, 'validation-failed', 'the query does not describe a probe; pointers name query parameters', { errors: parsed.errors });
    }
    const started = performance.now();
    const { probe } = parsed;
    const result = probe.module === 'icmp' ? await invoke(ex, tools.ping, probe.ping) : await invoke(ex, tools.dns, probe.dns);
    if (result === null) return;
    if (result.kind === 'problem' && !PROBE_FAILURES_AS_METRICS.has(result.code)) return sendToolResult(ex, result);
    const seconds = (performance.now() - started) / 1000;
    const text = probe.module === 'icmp' ? await icmpExposition(result, seconds) : await dnsExposition(result, probe.dns.types[0] as string, seconds);
    ex.send(200, PROMETHEUS_TEXT, text);
  }

  app.any('/*', (res: HttpResponse, req: HttpRequest) => insideUws(res, handle, res, req));

  function handle(res: HttpResponse, req: HttpRequest): void {
    inFlight++;
    metrics.requestStarted();
    const method = req.getCaseSensitiveMethod();
    const path = req.getUrl();
    const ex = new Exchange(res, method, path, peerText(res.getRemoteAddress()), performance.now(), settled);
    ex.requestId = requestId(req.getHeader('x-request-id'));
    ex.header('X-Request-Id', ex.requestId);
    if (draining) ex.closeConnection = true;
    const route = routes.get(path);
    if (!route) return sendProblem(ex, 'not-found', `no resource at ${path}`);
    ex.route = path;
    const handler = route.methods[(method === 'HEAD' ? 'GET' : method) as Method];
    if (!handler || (method === 'HEAD' && !route.allow.includes('HEAD'))) {
      ex.header('Allow', route.allow);
      return sendProblem(ex, 'method-not-allowed', `${method} is not allowed on ${path}; allowed: ${route.allow}`);
    }
    try {
      handler(ex, req);
    } catch (err) {
      log.log('error', 'handler threw', { path, error: (err as Error).stack ?? String(err) });
      sendProblem(ex, 'internal-error', 'unexpected error; this is a bug');
    }
  }

  return {
    listen() {
      return new Promise((resolve, reject) => {
        app.listen(config.host, config.port, (socket) => {
          if (!socket) return reject(new Error(`cannot listen on ${config.host}:${config.port}`));
          listenSocket = socket;
          resolve(uws.us_socket_local_port(socket as never));
        });
      });
    },
    shutdown(graceMs) {
      draining = true;
      if (listenSocket) uws.us_listen_socket_close(listenSocket);
      listenSocket = null;
      // Timers stop only once nothing is in flight: a body still arriving keeps its deadline while draining.
      const stopTimers = <T>(outcome: T): T => {
        admission.close();
        deadlines.close();
        return outcome;
      };
      if (inFlight === 0) return Promise.resolve(stopTimers({ unfinished: 0 }));
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(stopTimers({ unfinished: inFlight })), graceMs);
        drained = () => {
          clearTimeout(timer);
          // The last response is still in uWS's cork buffer until its callback returns to native code;
          // resolving on the next macrotask lets it reach the socket before the caller exits.
          setImmediate(() => resolve(stopTimers({ unfinished: 0 })));
        };
      });
    },
    inFlight: () => inFlight,
  };
}

// A caller's own id is kept when it is short and plain (so it can be searched in logs); else a fresh one.
const PLAIN_ID = /^[A-Za-z0-9._:-]{1,64}$/;
function requestId(incoming: string): string {
  return incoming !== '' && PLAIN_ID.test(incoming) ? incoming : randomUUID();
}

// Every X-Forwarded-For line, joined as RFC 9110 allows; undefined when there is none.
function forwardedFor(req: HttpRequest): string | undefined {
  let joined: string | undefined;
  req.forEach((name, value) => {
    if (name === 'x-forwarded-for') joined = joined === undefined ? value : `${joined},${value}`;
  });
  return joined;
}
