import type { Registry } from 'prom-client';
import type { EngineCounters } from '../../engines/dns';
import { OneLabelHistogram } from '../../observability/one-label-histogram';
import { counterReadAtScrape, PlainCounter } from '../../observability/plain-counter';
import type { Outcome } from '../outcome';
import type { DnsResult, ResolverReport } from './types';

export interface DnsMetrics {
  finished(outcome: Outcome<DnsResult>): void;
}

const ENGINE_EVENTS = ['sent', 'answered', 'timeouts', 'retries', 'tcpFallbacks', 'tlsConnections', 'mismatchedDropped', 'malformedDropped', 'errors', 'cancelled'] as const;
const RTT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

// Requests by outcome, queries by resolver and rcode, and each resolver's answer time, counted as
// each request ends; the engine's own counters are read at scrape time.
export function watchDnsEngine(registry: Registry, read: () => EngineCounters): DnsMetrics {
  const requests = new PlainCounter(registry, 'nettools_dns_requests_total', 'DNS tool requests by outcome: ok, or the failure code.', ['outcome']);
  const queries = new PlainCounter(registry, 'nettools_dns_queries_total', 'Queries by resolver and rcode (or error: timeout, connection-refused, ...).', ['resolver', 'rcode']);
  const answers = new PlainCounter(registry, 'nettools_dns_type_outcomes_total', 'Requested types of answered dns requests by outcome: records, no-data, nxdomain, upstream-failed (no resolver answered that type).', ['type', 'outcome']);
  const rtt = new OneLabelHistogram('nettools_dns_resolver_rtt_seconds', "Time to a resolver's answer, retries and TCP fallback included.", 'resolver', RTT_BUCKETS, registry);
  counterReadAtScrape(
    registry,
    'nettools_dns_engine_events_total',
    'DNS engine events: sent, answered, timeouts, retries, tcpFallbacks, tlsConnections (DoT connections opened), mismatchedDropped (spoofed or stray answers), malformedDropped, ...',
    ['event'],
    () => {
      const counters = read();
      return ENGINE_EVENTS.map((event) => [{ event }, counters[event]]);
    },
  );
  const countQueries = (reports: readonly ResolverReport[]) => {
    for (const resolver of reports) {
      const observe = rtt.series(resolver.id);
      for (const entry of Object.values(resolver.queries)) {
        queries.inc(resolver.id, 'rcode' in entry ? entry.rcode : entry.error);
        if ('rttMs' in entry) observe(entry.rttMs / 1000);
      }
    }
  };
  return {
    finished(outcome) {
      requests.inc(outcome.ok ? 'ok' : outcome.failure.code);
      if (outcome.ok) {
        countQueries(outcome.value.resolvers);
        const outcomes = outcome.value.outcomes;
        for (const type in outcomes) answers.inc(type, outcomes[type as keyof typeof outcomes] as string);
      } else if ('durationMs' in outcome.failure) countQueries(outcome.failure.resolvers);
    },
  };
}
