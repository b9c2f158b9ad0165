import type { FieldError } from '../http/problems';
import type { DnsRequest, PingRequest, RecordType } from '../schemas/requests';
import type { RequestValidators } from '../validation/validator';

// GET /probe?module=icmp|dns&target=...: what a Prometheus scrape config sends (blackbox_exporter style).
export type ProbeRequest = { module: 'icmp'; ping: PingRequest } | { module: 'dns'; dns: DnsRequest };

export const PROBE_PARAMS = {
  module: 'icmp or dns',
  target: 'icmp: host name or IP literal; dns: domain name',
  ip_protocol: 'icmp: ip4 or ip6 (blackbox_exporter naming)',
  count: 'icmp: echo requests, 1..10 (1)',
  type: 'dns: A, AAAA, MX or TXT (A)',
  resolver: 'dns: one configured resolver id (all when absent)',
  timeout_ms: 'per reply (icmp, 1000) or per query (dns, 2000)',
} as const;

// Where a tool-schema error lands among the query parameters.
const POINTERS: Array<[RegExp, string]> = [
  [/^\/(host|domain)$/, '/target'],
  [/^\/ipVersion$/, '/ip_protocol'],
  [/^\/types(\/\d+)?$/, '/type'],
  [/^\/resolvers(\/\d+)?$/, '/resolver'],
  [/^\/timeoutMs$/, '/timeout_ms'],
];

function toQueryPointer(e: FieldError): FieldError {
  const hit = POINTERS.find(([re]) => re.test(e.pointer));
  return hit ? { ...e, pointer: hit[1] } : e;
}

function integer(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  return /^\d{1,6}$/.test(text) ? Number(text) : text; // a non-number stays a string and fails the schema's type
}

export function parseProbeQuery(query: string, validators: RequestValidators): { ok: true; probe: ProbeRequest } | { ok: false; errors: FieldError[] } {
  const params = new URLSearchParams(query);
  const errors: FieldError[] = [];
  for (const name of new Set(params.keys())) {
    if (!(name in PROBE_PARAMS)) errors.push({ pointer: `/${name}`, message: 'is not a known parameter' });
    else if (params.getAll(name).length > 1) errors.push({ pointer: `/${name}`, message: 'must be given once' });
  }
  const get = (name: keyof typeof PROBE_PARAMS) => params.get(name) ?? undefined;
  const module = get('module');
  const target = get('target');
  if (module !== 'icmp' && module !== 'dns') errors.push({ pointer: '/module', message: 'must be icmp or dns' });
  if (target === undefined) errors.push({ pointer: '/target', message: 'is required' });
  if (errors.length > 0 || target === undefined) return { ok: false, errors };

  const body: Record<string, unknown> = {};
  const timeout = integer(get('timeout_ms'));
  if (timeout !== undefined) body['timeoutMs'] = timeout;
  if (module === 'icmp') {
    const protocol = get('ip_protocol');
    if (protocol !== undefined && protocol !== 'ip4' && protocol !== 'ip6') return { ok: false, errors: [{ pointer: '/ip_protocol', message: 'must be ip4 or ip6' }] };
    for (const name of ['type', 'resolver'] as const) if (get(name) !== undefined) errors.push({ pointer: `/${name}`, message: 'applies to module=dns only' });
    if (errors.length > 0) return { ok: false, errors };
    Object.assign(body, { host: target, count: integer(get('count')) ?? 1 });
    if (protocol !== undefined) body['ipVersion'] = protocol === 'ip4' ? 4 : 6;
    const parsed = validators.ping(body);
    return parsed.ok ? { ok: true, probe: { module: 'icmp', ping: parsed.value } } : { ok: false, errors: parsed.errors.map(toQueryPointer) };
  }
  for (const name of ['ip_protocol', 'count'] as const) if (get(name) !== undefined) errors.push({ pointer: `/${name}`, message: 'applies to module=icmp only' });
  if (errors.length > 0) return { ok: false, errors };
  Object.assign(body, { domain: target, types: [(get('type') ?? 'A') as RecordType] });
  const resolver = get('resolver');
  if (resolver !== undefined) body['resolvers'] = [resolver];
  const parsed = validators.dns(body);
  return parsed.ok ? { ok: true, probe: { module: 'dns', dns: parsed.value } } : { ok: false, errors: parsed.errors.map(toQueryPointer) };
}
