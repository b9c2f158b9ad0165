import type { FieldError } from '../problems/codes';

// GET /probe?module=...&target=...: what a Prometheus scrape config sends (blackbox_exporter style).
// Each tool declares its own parameters; these are common to all of them.
export const COMMON_PROBE_PARAMS: Readonly<Record<string, string>> = {
  module: 'which measurement: the module of a tool (icmp, dns, tcp)',
  target: 'icmp: host name or IP literal; dns: domain name; tcp: host:port ([address]:port for IPv6)',
  timeout_ms: 'per reply (icmp, 1000), per query (dns, 2000) or per connection (tcp, 2000)',
};

// What a tool's probe module offers to the query reader.
export interface ProbeModule {
  module: string;
  params: Readonly<Record<string, string>>;
}

export type ProbeQuery =
  | { ok: true; module: string; target: string; get(name: string): string | undefined }
  | { ok: false; errors: FieldError[] };

// A whole number stays a number; anything else stays text and fails the tool schema's type check.
export function integerParam(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  return /^\d{1,6}$/.test(text) ? Number(text) : text;
}

// Checks what is common to every module: names known, each given once, a known module and a target,
// and no parameter of another module.
export function readProbeQuery(query: string, modules: readonly ProbeModule[]): ProbeQuery {
  const params = new URLSearchParams(query);
  // Each parameter's modules (several may share one, as icmp and tcp share ip_protocol); null: every module's.
  const owner = new Map<string, string[] | null>(Object.keys(COMMON_PROBE_PARAMS).map((name) => [name, null]));
  for (const m of modules) for (const name of Object.keys(m.params)) owner.set(name, [...(owner.get(name) ?? []), m.module]);
  const errors: FieldError[] = [];
  for (const name of new Set(params.keys())) {
    if (!owner.has(name)) errors.push({ pointer: `/${name}`, message: 'is not a known parameter' });
    else if (params.getAll(name).length > 1) errors.push({ pointer: `/${name}`, message: 'must be given once' });
  }
  const module = params.get('module') ?? undefined;
  const target = params.get('target') ?? undefined;
  if (!modules.some((m) => m.module === module)) errors.push({ pointer: '/module', message: `must be ${modules.map((m) => m.module).join(' or ')}` });
  if (target === undefined) errors.push({ pointer: '/target', message: 'is required' });
  if (errors.length > 0 || target === undefined || module === undefined) return { ok: false, errors };
  for (const name of new Set(params.keys())) {
    const of = owner.get(name);
    if (of !== null && of !== undefined && !of.includes(module)) errors.push({ pointer: `/${name}`, message: `applies to ${of.map((m) => `module=${m}`).join(' or ')} only` });
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, module, target, get: (name) => params.get(name) ?? undefined };
}

// Where an error about a tool's request field lands among the query parameters.
export function toQueryPointer(e: FieldError, pointers: ReadonlyArray<readonly [RegExp, string]>): FieldError {
  const hit = pointers.find(([re]) => re.test(e.pointer));
  return hit ? { ...e, pointer: hit[1] } : e;
}
