import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

// One registry per server (not prom-client's global one), so several servers in one process stay apart.
export interface HttpMetrics {
  registry: Registry;
  requestStarted(): void;
  requestSettled(route: string, method: string, status: number | 'aborted', seconds: number, problem: string | null): void;
  // A gauge read at scrape time, so the hot path pays nothing for it.
  gaugeFrom(name: string, help: string, read: () => number): void;
}

// NETTOOLS_METRICS=false: nothing is recorded, so the cost of metrics can be measured against it.
export function disabledHttpMetrics(): HttpMetrics {
  return { registry: new Registry(), requestStarted() {}, requestSettled() {}, gaugeFrom() {} };
}

// The method is the client's to choose: anything else would let a client grow the label set without bound.
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'CONNECT', 'TRACE']);

export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'nettools_http_requests_total',
    help: 'HTTP requests by route, method and status (status "aborted" when the client went away).',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'nettools_http_request_duration_seconds',
    help: 'Time from request headers to response, by route.',
    labelNames: ['route'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const inFlight = new Gauge({ name: 'nettools_http_requests_in_flight', help: 'Requests being served now.', registers: [registry] });
  const problems = new Counter({
    name: 'nettools_http_problems_total',
    help: 'Problem responses by code: rejections (rate-limited, too-many-concurrent, overloaded, ...) and errors.',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  // Label-bound children, looked up by a flat key: prom-client re-hashes a label object on every call.
  // Every label value here comes from a bounded set (methods are folded into KNOWN_METHODS or "other").
  const requestChildren = new Map<string, ReturnType<typeof requests.labels>>();
  const durationChildren = new Map<string, ReturnType<typeof duration.labels>>();
  const problemChildren = new Map<string, ReturnType<typeof problems.labels>>();
  const child = <C>(cache: Map<string, C>, key: string, make: () => C): C => {
    let found = cache.get(key);
    if (found === undefined) cache.set(key, (found = make()));
    return found;
  };
  return {
    registry,
    requestStarted: () => inFlight.inc(),
    requestSettled(route, rawMethod, status, seconds, problem) {
      inFlight.dec();
      const method = KNOWN_METHODS.has(rawMethod) ? rawMethod : 'other';
      const statusText = String(status);
      child(requestChildren, `${route} ${method} ${statusText}`, () => requests.labels(route, method, statusText)).inc();
      child(durationChildren, route, () => duration.labels(route)).observe(seconds);
      if (problem !== null) child(problemChildren, problem, () => problems.labels(problem)).inc();
    },
    gaugeFrom(name, help, read) {
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    },
  };
}
