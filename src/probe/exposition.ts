import { Gauge, Registry } from 'prom-client';
import type { ToolResult } from '../tools/tool';

// Turns one measurement into blackbox_exporter's probe metrics, so existing scrape configs and alerts work.
// Outcomes of the measurement (no address, no answer, loss) are probe_success 0, as blackbox_exporter
// reports them; refusals (bad query, policy, rate limits) stay HTTP problems.
export const PROBE_FAILURES_AS_METRICS = new Set(['host-not-found', 'upstream-timeout']);

interface PingBody {
  address: string;
  ipVersion: 4 | 6;
  reachable: boolean;
  packets: { sent: number; received: number };
  rtt: { avgMs: number } | null;
  replies: Array<{ ttl?: number }>;
  resolveMs: number;
}

interface DnsQuery {
  rcode?: string;
  rttMs?: number;
  answers?: unknown[];
}

interface DnsBody {
  records: Record<string, unknown[]>;
  resolvers: Array<{ id: string; queries: Record<string, DnsQuery> }>;
}

function gauge(registry: Registry, name: string, help: string, value: number, labels?: Record<string, string>): void {
  const g = new Gauge({ name, help, labelNames: labels ? Object.keys(labels) : [], registers: [registry] });
  if (labels) g.set(labels, value);
  else g.set(value);
}

// FNV-1a, as blackbox_exporter hashes the probed address: alerts can see the address change, not what it is.
function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h;
}

export async function icmpExposition(result: ToolResult, durationSeconds: number): Promise<string> {
  const registry = new Registry();
  const body = result.kind === 'ok' ? (result.body as PingBody) : null;
  gauge(registry, 'probe_success', 'Displays whether or not the probe was a success', body?.reachable ? 1 : 0);
  gauge(registry, 'probe_duration_seconds', 'Returns how long the probe took to complete in seconds', durationSeconds);
  if (body) {
    gauge(registry, 'probe_dns_lookup_time_seconds', 'Returns the time taken for probe dns lookup in seconds', body.resolveMs / 1000);
    gauge(registry, 'probe_ip_protocol', 'Specifies whether probe ip protocol is IP4 or IP6', body.ipVersion);
    gauge(registry, 'probe_ip_addr_hash', 'Specifies the hash of IP address. It\'s useful to detect if the IP address changes.', fnv1a32(body.address));
    const phases = new Gauge({ name: 'probe_icmp_duration_seconds', help: 'Duration of icmp request by phase', labelNames: ['phase'], registers: [registry] });
    phases.set({ phase: 'resolve' }, body.resolveMs / 1000);
    if (body.rtt) phases.set({ phase: 'rtt' }, body.rtt.avgMs / 1000);
    const hop = body.replies.find((r) => r.ttl !== undefined)?.ttl;
    if (hop !== undefined) gauge(registry, 'probe_icmp_reply_hop_limit', 'Replied packet hop limit (TTL for ipv4)', hop);
    gauge(registry, 'nettools_probe_icmp_packets_sent', 'Echo requests sent by this probe', body.packets.sent);
    gauge(registry, 'nettools_probe_icmp_packets_received', 'Echo replies received by this probe', body.packets.received);
  }
  return registry.metrics();
}

export async function dnsExposition(result: ToolResult, type: string, durationSeconds: number): Promise<string> {
  const registry = new Registry();
  const body =
    result.kind === 'ok'
      ? (result.body as DnsBody)
      : ({ records: {}, resolvers: (result.extensions?.['resolvers'] ?? []) as DnsBody['resolvers'] } satisfies DnsBody);
  const answered = body.resolvers.map((r) => r.queries[type]).filter((q): q is DnsQuery => q?.rcode === 'NOERROR');
  const fastest = answered.reduce<number | null>((min, q) => (q.rttMs !== undefined && (min === null || q.rttMs < min) ? q.rttMs : min), null);
  gauge(registry, 'probe_success', 'Displays whether or not the probe was a success', answered.length > 0 ? 1 : 0);
  gauge(registry, 'probe_duration_seconds', 'Returns how long the probe took to complete in seconds', durationSeconds);
  gauge(registry, 'probe_dns_query_succeeded', 'Displays whether or not the query was executed successfully', answered.length > 0 ? 1 : 0);
  if (fastest !== null) gauge(registry, 'probe_dns_lookup_time_seconds', 'Returns the time taken for probe dns lookup in seconds', fastest / 1000);
  gauge(registry, 'probe_dns_answer_rrs', 'Returns number of entries in the answer resource record list', (body.records[type] ?? []).length);
  const perResolver = new Gauge({
    name: 'nettools_probe_dns_resolver_rtt_seconds',
    help: 'Each resolver\'s answer time; absent for a resolver that did not answer',
    labelNames: ['resolver', 'rcode'],
    registers: [registry],
  });
  for (const r of body.resolvers) {
    const q = r.queries[type];
    if (q?.rcode !== undefined && q.rttMs !== undefined) perResolver.set({ resolver: r.id, rcode: q.rcode }, q.rttMs / 1000);
  }
  return registry.metrics();
}
