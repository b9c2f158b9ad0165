import { Gauge, Registry } from 'prom-client';
import type { QueryAnswered } from '../../engines/dns';
import { isAnswered } from '../../engines/dns/types';
import { gauge, PROBE_DURATION_HELP, PROBE_SUCCESS_HELP } from '../../probe/gauges';
import type { Outcome } from '../outcome';
import { TYPE_OUTCOMES, type TypeOutcome } from '../resolver-verdict';
import type { ProbeSpec } from '../tool';
import type { DnsRequest, DnsResult, RecordType, ResolverReport } from './types';

// blackbox_exporter's dns module: one type (A by default), from one resolver or all of them.
export const dnsProbe: ProbeSpec<DnsRequest, DnsResult> = {
  module: 'dns',
  params: {
    type: 'dns: one record type the dns tool takes, e.g. A, AAAA, MX, TXT, SOA, NS (A)',
    resolver: 'dns: one configured resolver id (all when absent)',
  },
  body(target, get) {
    const body: Record<string, unknown> = { domain: target, types: [get('type') ?? 'A'] };
    const resolver = get('resolver');
    if (resolver !== undefined) body['resolvers'] = [resolver];
    return { body };
  },
  pointers: [
    [/^\/domain$/, '/target'],
    [/^\/types(\/\d+)?$/, '/type'],
    [/^\/resolvers(\/\d+)?$/, '/resolver'],
    [/^\/timeoutMs$/, '/timeout_ms'],
  ],
  // No resolver answering is a failed probe, as blackbox_exporter reports it; refusals stay problems.
  failuresAsMetrics: new Set(['upstream-failed', 'upstream-timeout']),
  exposition: (outcome, request, seconds) => dnsExposition(outcome, request.types[0] as RecordType, seconds),
};

function reportsOf(outcome: Outcome<DnsResult>): { records: DnsResult['records']; resolvers: readonly ResolverReport[] } {
  if (outcome.ok) return outcome.value;
  return { records: {}, resolvers: 'durationMs' in outcome.failure ? outcome.failure.resolvers : [] };
}

// The type's outcome, every value present (1 for the one that holds), so that an alert can tell "no
// such record" from "the resolvers gave no answer" without knowing which series exist.
function outcomeGauge(registry: Registry, outcome: Outcome<DnsResult>, type: RecordType): void {
  const said: TypeOutcome = outcome.ok ? (outcome.value.outcomes[type] ?? 'upstream-failed') : 'upstream-failed';
  const g = new Gauge({ name: 'nettools_probe_dns_outcome', help: 'What the resolvers that answered said of the type: records, no-data, nxdomain, or upstream-failed (none answered)', labelNames: ['outcome'], registers: [registry] });
  for (const value of TYPE_OUTCOMES) g.set({ outcome: value }, value === said ? 1 : 0);
}

async function dnsExposition(outcome: Outcome<DnsResult>, type: RecordType, durationSeconds: number): Promise<string> {
  const registry = new Registry();
  const { records, resolvers } = reportsOf(outcome);
  const answered = resolvers.map((r) => r.queries[type]).filter((q): q is QueryAnswered => isAnswered(q) && q.rcode === 'NOERROR');
  const fastest = answered.reduce<number | null>((min, q) => (min === null || q.rttMs < min ? q.rttMs : min), null);
  gauge(registry, 'probe_success', PROBE_SUCCESS_HELP, answered.length > 0 ? 1 : 0);
  gauge(registry, 'probe_duration_seconds', PROBE_DURATION_HELP, durationSeconds);
  gauge(registry, 'probe_dns_query_succeeded', 'Displays whether or not the query was executed successfully', answered.length > 0 ? 1 : 0);
  outcomeGauge(registry, outcome, type);
  if (fastest !== null) gauge(registry, 'probe_dns_lookup_time_seconds', 'Returns the time taken for probe dns lookup in seconds', fastest / 1000);
  gauge(registry, 'probe_dns_answer_rrs', 'Returns number of entries in the answer resource record list', (records[type] ?? []).length);
  const perResolver = new Gauge({
    name: 'nettools_probe_dns_resolver_rtt_seconds',
    help: "Each resolver's answer time; absent for a resolver that did not answer",
    labelNames: ['resolver', 'rcode'],
    registers: [registry],
  });
  for (const r of resolvers) {
    const q = r.queries[type];
    if (isAnswered(q)) perResolver.set({ resolver: r.id, rcode: q.rcode }, q.rttMs / 1000);
  }
  return registry.metrics();
}
