import type { Registry } from 'prom-client';
import { PlainCounter } from '../../observability/plain-counter';
import type { Outcome } from '../outcome';
import type { HttpResult } from './types';

// Named _check_: nettools_http_requests_total already counts the server's own HTTP requests
// (observability/metrics.ts), with other labels; one name cannot hold both.
export function watchHttp(registry: Registry): PlainCounter {
  return new PlainCounter(registry, 'nettools_http_check_requests_total', 'HTTP check requests by outcome: answered, where an exchange without an answer ended (connect-refused, handshake-failed, response-timeout, ...), or the failure code.', ['outcome']);
}

export function httpOutcomeLabel(outcome: Outcome<HttpResult>): string {
  if (!outcome.ok) return outcome.failure.code;
  const r = outcome.value;
  if (r.connect !== undefined) return `connect-${r.connect}`;
  if (r.handshake !== undefined) return `handshake-${r.handshake}`;
  if (r.response !== undefined) return `response-${r.response}`;
  return 'answered';
}
