import { Gauge, Registry } from 'prom-client';
import { addressGauges, gauge, PROBE_DURATION_HELP, PROBE_SUCCESS_HELP } from '../../probe/gauges';
import { integerParam } from '../../probe/query';
import { connectionProbeBody, HOST_PORT_POINTERS } from '../host-port-probe';
import type { Outcome } from '../outcome';
import type { ProbeSpec } from '../tool';
import { sslGauges } from '../tls/probe';
import type { HttpRequest, HttpResult, HttpTimings } from './types';

// blackbox_exporter's http prober: one URL, redirects followed (up to 5 here, as its default follows
// them), success a 2xx answer (and over https a certificate that verifies: verify stays on).
export const httpProbe: ProbeSpec<HttpRequest, HttpResult> = {
  module: 'http',
  params: {
    follow_redirects: 'http: redirects followed, 0..5 (5)',
    method: 'http: GET or HEAD (GET)',
  },
  body(target, get) {
    const method = get('method');
    return connectionProbeBody({ url: target, followRedirects: integerParam(get('follow_redirects')) ?? 5, ...(method !== undefined ? { method } : {}) }, get);
  },
  pointers: [[/^\/url$/, '/target'], ...HOST_PORT_POINTERS.filter(([p]) => !p.test('/host') && !p.test('/port')), [/^\/followRedirects$/, '/follow_redirects']],
  failuresAsMetrics: new Set(['host-not-found', 'upstream-failed', 'upstream-timeout']),
  exposition: (outcome, _request, seconds) => httpExposition(outcome, seconds),
};

// blackbox's phases, summed over every exchange of the check as its prober sums them over redirects.
const PHASES: ReadonlyArray<readonly [string, keyof HttpTimings]> = [['resolve', 'resolveMs'], ['connect', 'connectMs'], ['tls', 'tlsMs'], ['processing', 'firstByteMs'], ['transfer', 'transferMs']];

async function httpExposition(outcome: Outcome<HttpResult>, durationSeconds: number): Promise<string> {
  const registry = new Registry();
  const result = outcome.ok ? outcome.value : null;
  const answered = result?.status !== undefined && result.response === undefined;
  gauge(registry, 'probe_success', PROBE_SUCCESS_HELP, answered && (result.status as number) >= 200 && (result.status as number) < 300 ? 1 : 0);
  gauge(registry, 'probe_duration_seconds', PROBE_DURATION_HELP, durationSeconds);
  if (result === null) return registry.metrics();
  const all = [...result.redirects.map((r) => r.timings), result.timings];
  addressGauges(registry, sum(all, 'resolveMs') / 1000, result.ipVersion, result.address);
  const phases = new Gauge({ name: 'probe_http_duration_seconds', help: 'Duration of http request by phase, summed over all redirects', labelNames: ['phase'], registers: [registry] });
  for (const [phase, key] of PHASES) phases.set({ phase }, sum(all, key) / 1000);
  gauge(registry, 'probe_http_status_code', 'Response HTTP status code', result.status ?? 0);
  const length = Number(result.headers?.['content-length'] ?? Number.NaN);
  gauge(registry, 'probe_http_content_length', 'Length of http content response', Number.isInteger(length) ? length : -1);
  gauge(registry, 'probe_http_uncompressed_body_length', 'Length of uncompressed response body', result.body?.bytes ?? 0);
  gauge(registry, 'probe_http_redirects', 'The number of redirects', result.redirects.length);
  gauge(registry, 'probe_http_ssl', 'Indicates if SSL was used for the final redirect', result.tls !== undefined ? 1 : 0);
  gauge(registry, 'probe_http_version', 'Returns the version of HTTP of the probe response', result.httpVersion !== undefined ? Number(result.httpVersion) : 0);
  if (result.tls !== undefined) sslGauges(registry, result.tls);
  return registry.metrics();
}

function sum(timings: readonly HttpTimings[], key: keyof HttpTimings): number {
  return timings.reduce((total, t) => total + (t[key] ?? 0), 0);
}
