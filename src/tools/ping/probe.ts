import { Gauge, Registry } from 'prom-client';
import { fnv1a32, gauge, PROBE_DURATION_HELP, PROBE_SUCCESS_HELP } from '../../probe/gauges';
import { integerParam } from '../../probe/query';
import type { Outcome } from '../outcome';
import type { ProbeSpec } from '../tool';
import type { PingRequest, PingResult } from './types';

// blackbox_exporter's icmp module: one echo by default, ip_protocol as it names the families.
export const pingProbe: ProbeSpec<PingRequest, PingResult> = {
  module: 'icmp',
  params: {
    ip_protocol: 'icmp: ip4 or ip6 (blackbox_exporter naming)',
    count: 'icmp: echo requests, 1..10 (1)',
  },
  body(target, get) {
    const protocol = get('ip_protocol');
    if (protocol !== undefined && protocol !== 'ip4' && protocol !== 'ip6') return { errors: [{ pointer: '/ip_protocol', message: 'must be ip4 or ip6' }] };
    const body: Record<string, unknown> = { host: target, count: integerParam(get('count')) ?? 1 };
    if (protocol !== undefined) body['ipVersion'] = protocol === 'ip4' ? 4 : 6;
    return { body };
  },
  pointers: [
    [/^\/host$/, '/target'],
    [/^\/ipVersion$/, '/ip_protocol'],
    [/^\/timeoutMs$/, '/timeout_ms'],
  ],
  // No address is a failed probe, as blackbox_exporter reports it, whether the name has none or the
  // resolvers gave no answer; refusals stay problems.
  failuresAsMetrics: new Set(['host-not-found', 'upstream-failed', 'upstream-timeout']),
  exposition: (outcome, request, seconds) => icmpExposition(outcome, request, seconds),
};

const RESOLVE_OUTCOMES = ['resolved', 'nxdomain', 'no-data', 'upstream-failed', 'upstream-timeout'] as const;

// How a target name's resolution ended, every value present (1 for the one that holds): "no such name"
// and "the resolvers gave no answer" are different alerts. Absent for an IP literal, which asks nobody.
function resolveOutcome(registry: Registry, outcome: Outcome<PingResult>): void {
  const f = outcome.ok ? null : outcome.failure;
  const said = f === null ? 'resolved' : f.code === 'host-not-found' ? f.dns : f.code;
  const g = new Gauge({ name: 'nettools_probe_icmp_resolve_outcome', help: "How the target name's resolution ended: resolved, nxdomain, no-data, upstream-failed or upstream-timeout", labelNames: ['outcome'], registers: [registry] });
  for (const value of RESOLVE_OUTCOMES) g.set({ outcome: value }, value === said ? 1 : 0);
}

async function icmpExposition(outcome: Outcome<PingResult>, request: PingRequest, durationSeconds: number): Promise<string> {
  const registry = new Registry();
  const result = outcome.ok ? outcome.value : null;
  gauge(registry, 'probe_success', PROBE_SUCCESS_HELP, result?.reachable ? 1 : 0);
  gauge(registry, 'probe_duration_seconds', PROBE_DURATION_HELP, durationSeconds);
  if (request.target.kind === 'name') resolveOutcome(registry, outcome);
  if (result) {
    gauge(registry, 'probe_dns_lookup_time_seconds', 'Returns the time taken for probe dns lookup in seconds', result.resolveMs / 1000);
    gauge(registry, 'probe_ip_protocol', 'Specifies whether probe ip protocol is IP4 or IP6', result.ipVersion);
    gauge(registry, 'probe_ip_addr_hash', "Specifies the hash of IP address. It's useful to detect if the IP address changes.", fnv1a32(result.address));
    const phases = new Gauge({ name: 'probe_icmp_duration_seconds', help: 'Duration of icmp request by phase', labelNames: ['phase'], registers: [registry] });
    phases.set({ phase: 'resolve' }, result.resolveMs / 1000);
    if (result.rtt) phases.set({ phase: 'rtt' }, result.rtt.avgMs / 1000);
    const hop = result.replies?.find((r) => r.ttl !== undefined)?.ttl;
    if (hop !== undefined) gauge(registry, 'probe_icmp_reply_hop_limit', 'Replied packet hop limit (TTL for ipv4)', hop);
    gauge(registry, 'nettools_probe_icmp_packets_sent', 'Echo requests sent by this probe', result.packets.sent);
    gauge(registry, 'nettools_probe_icmp_packets_received', 'Echo replies received by this probe', result.packets.received);
  }
  return registry.metrics();
}
