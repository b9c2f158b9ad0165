import { Counter, Histogram, type Registry } from 'prom-client';
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

// A counter whose value lives in an engine: reset and refilled at each scrape, so the hot path pays nothing.
function engineCounter(registry: Registry, name: string, help: string, labelNames: string[], read: () => Array<[Record<string, string>, number]>): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.inc(labels, value);
    },
  });
}

export function createToolMetrics(registry: Registry): ToolMetrics {
  const pingRequests = new Counter({
    name: 'nettools_ping_requests_total',
    help: 'Ping requests by outcome: ok, or the problem code.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const echoes = new Counter({
    name: 'nettools_ping_echoes_total',
    help: 'Echo requests by result: reply, timeout, unreachable, time-exceeded; duplicates counted apart.',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const dnsRequests = new Counter({
    name: 'nettools_dns_requests_total',
    help: 'DNS tool requests by outcome: ok, or the problem code.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const dnsQueries = new Counter({
    name: 'nettools_dns_queries_total',
    help: 'Queries by resolver and rcode (or error: timeout, connection-refused, ...).',
    labelNames: ['resolver', 'rcode'] as const,
    registers: [registry],
  });
  const rtt = new Histogram({
    name: 'nettools_dns_resolver_rtt_seconds',
    help: 'Time to a resolver\'s answer, retries and TCP fallback included.',
    labelNames: ['resolver'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  return {
    pingFinished(result) {
      if (result.kind !== 'ok') return void pingRequests.inc({ outcome: result.code });
      pingRequests.inc({ outcome: 'ok' });
      const body = result.body as { replies: ReplyLike[]; packets: { duplicates: number } };
      for (const reply of body.replies) echoes.inc({ result: reply.status });
      if (body.packets.duplicates > 0) echoes.inc({ result: 'duplicate' }, body.packets.duplicates);
    },
    dnsFinished(result) {
      dnsRequests.inc({ outcome: result.kind === 'ok' ? 'ok' : result.code });
      const resolvers = (result.kind === 'ok' ? (result.body as { resolvers?: ResolverLike[] }).resolvers : result.extensions?.['resolvers']) as
        | ResolverLike[]
        | undefined;
      for (const resolver of resolvers ?? []) {
        for (const query of Object.values(resolver.queries)) {
          dnsQueries.inc({ resolver: resolver.id, rcode: query.rcode ?? query.error ?? 'unknown' });
          if (query.rttMs !== undefined) rtt.observe({ resolver: resolver.id }, query.rttMs / 1000);
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
      engineCounter(registry, 'nettools_ping_stray_packets_total', 'ICMP replies and errors that matched no echo of ours, dropped.', ['family'], perFamily('stray'));
      engineCounter(registry, 'nettools_ping_kernel_drops_total', 'Packets the kernel dropped on the ICMP socket\'s full receive queue.', ['family'], perFamily('drops'));
    },
    watchDnsEngine(read) {
      engineCounter(registry, 'nettools_dns_engine_events_total', 'DNS engine events: sent, answered, timeouts, retries, tcpFallbacks, mismatchedDropped (spoofed or stray answers), malformedDropped, ...', ['event'], () => {
        const counters = read();
        return DNS_ENGINE_EVENTS.map((event) => [{ event }, counters[event]]);
      });
    },
  };
}
