import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

// One registry per server (not prom-client's global one), so several servers in one process stay apart.
export interface HttpMetrics {
  registry: Registry;
  requestStarted(): void;
  requestSettled(route: string, method: string, status: number | 'aborted', seconds: number, problem: string | null): void;
  // A gauge read at scrape time, so the hot path pays nothing for it.
  gaugeFrom(name: string, help: string, read: () => number): void;
}

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
  return {
    registry,
    requestStarted: () => inFlight.inc(),
    requestSettled(route, method, status, seconds, problem) {
      inFlight.dec();
      requests.inc({ route, method, status: String(status) });
      duration.observe({ route }, seconds);
      if (problem !== null) problems.inc({ code: problem });
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
