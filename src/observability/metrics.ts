import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { OneLabelHistogram } from './one-label-histogram';
import { counterReadAtScrape, PlainCounter } from './plain-counter';

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
  const duration = new OneLabelHistogram(
    'nettools_http_request_duration_seconds',
    'Time from request headers to response, by route.',
    'route',
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registry,
  );
  // The hot path counts in plain numbers; prom-client hears of them at scrape time (collect), since its
  // own inc() re-hashes the label set on every call, a visible share of a small request's CPU.
  let inFlightNow = 0;
  new Gauge({
    name: 'nettools_http_requests_in_flight',
    help: 'Requests being served now.',
    registers: [registry],
    collect() {
      this.set(inFlightNow);
    },
  });
  // status -> route -> method -> count; every key comes from a bounded set (methods are folded into
  // KNOWN_METHODS or "other", routes are known paths or "unmatched").
  const requestCounts = new Map<number | string, Map<string, Map<string, number>>>();
  counterReadAtScrape(
    registry,
    'nettools_http_requests_total',
    'HTTP requests by route, method and status (status "aborted" when the client went away).',
    ['route', 'method', 'status'],
    () => {
      const rows: Array<[Record<string, string>, number]> = [];
      for (const [status, byRoute] of requestCounts) {
        for (const [route, byMethod] of byRoute) for (const [method, count] of byMethod) rows.push([{ route, method, status: String(status) }, count]);
      }
      return rows;
    },
  );
  const problems = new PlainCounter(
    registry,
    'nettools_http_problems_total',
    'Problem responses by code: rejections (rate-limited, too-many-concurrent, overloaded, ...) and errors.',
    ['code'],
  );
  return {
    registry,
    requestStarted: () => inFlightNow++,
    requestSettled(route, rawMethod, status, seconds, problem) {
      inFlightNow--;
      const method = KNOWN_METHODS.has(rawMethod) ? rawMethod : 'other';
      const byMethod = nested(nested(requestCounts, status), route);
      byMethod.set(method, (byMethod.get(method) ?? 0) + 1);
      duration.series(route)(seconds);
      if (problem !== null) problems.inc(problem);
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

function nested<K, V>(map: Map<K, Map<string, V>>, key: K): Map<string, V> {
  let inner = map.get(key);
  if (inner === undefined) map.set(key, (inner = new Map()));
  return inner;
}
