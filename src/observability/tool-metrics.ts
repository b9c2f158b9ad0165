import type { Registry } from 'prom-client';
import { OneLabelHistogram } from './one-label-histogram';
import { counterReadAtScrape, PlainCounter } from './plain-counter';
import type { ToolMetrics } from '../tools/tool';

export type { ToolMetrics } from '../tools/tool';

interface ReplyLike {
  status: string;
}
interface QueryLike {
  rcode?: string;
  error?: string;
  rttMs?: number;
}
interface ResolverLike {
  id: string;
  queries: Record<string, QueryLike>;
}

const DNS_ENGINE_EVENTS = ['sent', 'answered', 'timeouts', 'retries', 'tcpFallbacks', 'mismatchedDropped', 'malformedDropped', 'errors', 'cancelled'] as const;

export function createToolMetrics(registry: Registry): ToolMetrics {
  const pingRequests = new PlainCounter(registry, 'nettools_ping_requests_total', 'Ping requests by outcome: ok, or the problem code.', ['outcome']);
  const echoes = new PlainCounter(
    registry,
    'nettools_ping_echoes_total',
    'Echo requests by result: reply, timeout, unreachable, time-exceeded; duplicates counted apart.',
    ['result'],
  );
  const dnsRequests = new PlainCounter(registry, 'nettools_dns_requests_total', 'DNS tool requests by outcome: ok, or the problem code.', ['outcome']);
  const dnsQueries = new PlainCounter(
    registry,
    'nettools_dns_queries_total',
    'Queries by resolver and rcode (or error: timeout, connection-refused, ...).',
    ['resolver', 'rcode'],
  );
  const rtt = new OneLabelHistogram(
    'nettools_dns_resolver_rtt_seconds',
    "Time to a resolver's answer, retries and TCP fallback included.",
    'resolver',
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registry,
  );

  return {
    pingFinished(result) {
      if (result.kind !== 'ok') return void pingRequests.inc(result.code);
      pingRequests.inc('ok');
      const body = result.body as { replies: ReplyLike[]; packets: { duplicates: number } };
      for (const reply of body.replies) echoes.inc(reply.status);
      if (body.packets.duplicates > 0) echoes.inc('duplicate', '', body.packets.duplicates);
    },
    dnsFinished(result) {
      dnsRequests.inc(result.kind === 'ok' ? 'ok' : result.code);
      const resolvers = (result.kind === 'ok' ? (result.body as { resolvers?: ResolverLike[] }).resolvers : result.extensions?.['resolvers']) as
        | ResolverLike[]
        | undefined;
      for (const resolver of resolvers ?? []) {
        const observe = rtt.series(resolver.id);
        for (const type in resolver.queries) {
          const query = resolver.queries[type] as QueryLike;
          dnsQueries.inc(resolver.id, query.rcode ?? query.error ?? 'unknown');
          if (query.rttMs !== undefined) observe(query.rttMs / 1000);
        }
      }
    },
    watchPinger(read) {
      const perFamily = (field: 'drops' | 'stray') => (): Array<[Record<string, string>, number]> => {
        const stats = read();
        return [
          [{ family: '4' }, stats.v4[field]],
          [{ family: '6' }, stats.v6[field]],
        ];
      };
      counterReadAtScrape(registry, 'nettools_ping_stray_packets_total', 'ICMP replies and errors that matched no echo of ours, dropped.', ['family'], perFamily('stray'));
      counterReadAtScrape(registry, 'nettools_ping_kernel_drops_total', 'Packets the kernel dropped on the ICMP socket\'s full receive queue.', ['family'], perFamily('drops'));
    },
    watchDnsEngine(read) {
      counterReadAtScrape(registry, 'nettools_dns_engine_events_total', 'DNS engine events: sent, answered, timeouts, retries, tcpFallbacks, mismatchedDropped (spoofed or stray answers), malformedDropped, ...', ['event'], () => {
        const counters = read();
        return DNS_ENGINE_EVENTS.map((event) => [{ event }, counters[event]]);
      });
    },
  };
}
