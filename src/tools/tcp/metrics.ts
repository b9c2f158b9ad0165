import type { Registry } from 'prom-client';
import { PlainCounter } from '../../observability/plain-counter';
import type { Outcome } from '../outcome';
import type { TcpAttempt, TcpResult } from './types';

export interface TcpMetrics {
  finished(outcome: Outcome<TcpResult>): void;
  // A long check's attempts by status, counted from its statistics (its result lists no attempts).
  attempts(statuses: Readonly<Record<TcpAttempt['status'], number>>): void;
}

// Requests by outcome and attempts by result, counted as each request ends.
export function watchTcp(registry: Registry): TcpMetrics {
  const requests = new PlainCounter(registry, 'nettools_tcp_requests_total', 'TCP check requests by outcome: ok, or the failure code.', ['outcome']);
  const attempts = new PlainCounter(registry, 'nettools_tcp_attempts_total', 'TCP connection attempts by result: connected, refused, timeout, unreachable, error.', ['result']);
  return {
    finished(outcome) {
      if (!outcome.ok) return void requests.inc(outcome.failure.code);
      requests.inc('ok');
      for (const a of outcome.value.results ?? []) attempts.inc(a.status);
    },
    attempts(statuses) {
      for (const [status, n] of Object.entries(statuses)) if (n > 0) attempts.inc(status, '', n);
    },
  };
}
