import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { OneLabelHistogram } from './one-label-histogram';
import { counterReadAtScrape, PlainCounter } from './plain-counter';

// One registry per server (not prom-client's global one), so several servers in one process stay apart.
export interface HttpMetrics {
  registry: Registry;
  requestStarted(): void;
  requestSettled(route: string, method: string, status: number | 'aborted', seconds: number, problem: string | null): void;
  // Admission decisions by plan (`default` for anonymous clients and bad keys): a bounded label set.
  planDecision(plan: string, outcome: string): void;
  // A gauge read at scrape time, so the hot path pays nothing for it. `aggregator` says how worker
  // threads' values combine: `sum` for each thread's own, `max` for a value they all read from shared memory.
  gaugeFrom(name: string, help: string, read: () => number, aggregator?: 'sum' | 'max'): void;
  // A counter whose total is read at scrape time.
  counterFrom(name: string, help: string, read: () => number): void;
}

// NETTOOLS_METRICS=false: nothing is recorded, so the cost of metrics can be measured against it.
export function disabledHttpMetrics(): HttpMetrics {
  return { registry: new Registry(), requestStarted() {}, requestSettled() {}, planDecision() {}, gaugeFrom() {}, counterFrom() {} };
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
  const countRequest = requestCounter(registry);
  const problems = new PlainCounter(
    registry,
    'nettools_http_problems_total',
    'Problem responses by code: rejections (rate-limited, too-many-concurrent, overloaded, ...) and errors.',
    ['code'],
  );
  const countDecision = planDecisionCounter(registry);
  return {
    registry,
    requestStarted: () => inFlightNow++,
    planDecision: countDecision,
    requestSettled(route, rawMethod, status, seconds, problem) {
      inFlightNow--;
      countRequest(status, route, KNOWN_METHODS.has(rawMethod) ? rawMethod : 'other');
      duration.series(route)(seconds);
      if (problem !== null) problems.inc(problem);
    },
    counterFrom(name, help, read) {
      counterReadAtScrape(registry, name, help, [], () => [[{}, read()]]);
    },
    gaugeFrom(name, help, read, aggregator = 'sum') {
      new Gauge({
        name,
        help,
        aggregator,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    },
  };
}

// nettools_http_requests_total, counted as status -> route -> method -> count and read at scrape time.
// Every key comes from a bounded set (methods are folded into KNOWN_METHODS or "other", routes are
// known paths or "unmatched").
function requestCounter(registry: Registry): (status: number | string, route: string, method: string) => void {
  const counts = new Map<number | string, Map<string, Map<string, number>>>();
  counterReadAtScrape(
    registry,
    'nettools_http_requests_total',
    'HTTP requests by route, method and status (status "aborted" when the client went away).',
    ['route', 'method', 'status'],
    () => {
      const rows: Array<[Record<string, string>, number]> = [];
      for (const [status, byRoute] of counts) {
        for (const [route, byMethod] of byRoute) for (const [method, count] of byMethod) rows.push([{ route, method, status: String(status) }, count]);
      }
      return rows;
    },
  );
  return (status, route, method) => {
    const byMethod = nested(nested(counts, status), route);
    byMethod.set(method, (byMethod.get(method) ?? 0) + 1);
  };
}

// nettools_plan_decisions_total, counted as plan -> outcome -> count: no label text is joined per request.
function planDecisionCounter(registry: Registry): (plan: string, outcome: string) => void {
  const counts = new Map<string, Map<string, number>>();
  counterReadAtScrape(
    registry,
    'nettools_plan_decisions_total',
    'Admission decisions by plan and outcome: admitted, rate-limited, too-many-concurrent, overloaded, invalid-api-key.',
    ['plan', 'outcome'],
    () => {
      const rows: Array<[Record<string, string>, number]> = [];
      for (const [plan, byOutcome] of counts) for (const [outcome, count] of byOutcome) rows.push([{ plan, outcome }, count]);
      return rows;
    },
  );
  return (plan, outcome) => {
    const byOutcome = nested(counts, plan);
    byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
  };
}

function nested<K, V>(map: Map<K, Map<string, V>>, key: K): Map<string, V> {
  let inner = map.get(key);
  if (inner === undefined) map.set(key, (inner = new Map()));
  return inner;
}
