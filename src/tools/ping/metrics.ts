import type { Registry } from 'prom-client';
import type { EchoStatus } from '../../engines/icmp/types';
import { PlainCounter } from '../../observability/plain-counter';
import { familyCounter, type EngineStats } from '../icmp-metrics';
import type { Outcome } from '../outcome';
import type { PingResult } from './types';

export interface PingMetrics {
  finished(outcome: Outcome<PingResult>): void;
  // A long ping's echoes by status, counted from its statistics (its result lists no replies).
  echoes(statuses: Readonly<Record<EchoStatus, number>>): void;
}

// Requests by outcome and echoes by result, counted as each request ends; the engine's own counters
// are read at scrape time.
export function watchPinger(registry: Registry, read: EngineStats): PingMetrics {
  const requests = new PlainCounter(registry, 'nettools_ping_requests_total', 'Ping requests by outcome: ok, or the failure code.', ['outcome']);
  const echoes = new PlainCounter(
    registry,
    'nettools_ping_echoes_total',
    'Echo requests by result: reply, timeout, unreachable, time-exceeded; duplicates counted apart.',
    ['result'],
  );
  familyCounter(registry, 'nettools_ping_stray_packets_total', "ICMP replies and errors on the ICMP sockets (one per family per worker, shared by ping and traceroute) that matched no echo or probe of ours, dropped.", read, 'stray');
  familyCounter(registry, 'nettools_ping_kernel_drops_total', "Packets the kernel dropped on the full receive queue of an ICMP socket (one per family per worker, shared by ping and traceroute).", read, 'drops');
  return {
    finished(outcome) {
      if (!outcome.ok) return void requests.inc(outcome.failure.code);
      requests.inc('ok');
      for (const reply of outcome.value.replies ?? []) echoes.inc(reply.status);
      if (outcome.value.packets.duplicates > 0) echoes.inc('duplicate', '', outcome.value.packets.duplicates);
    },
    echoes(statuses) {
      for (const [status, n] of Object.entries(statuses)) if (n > 0) echoes.inc(status, '', n);
    },
  };
}
