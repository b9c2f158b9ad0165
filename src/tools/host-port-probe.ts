import type { FieldError } from '../problems/codes';
import { integerParam } from '../probe/query';

// `host:port`, `[v6]:port`, as blackbox_exporter's tcp module takes its target.
export const HOST_PORT = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/;

// What the /probe modules that connect to a port (tcp, tls) read alike: the target as host and port,
// ip_protocol and timeout_ms. Each module adds its own parameters to the body.
export function hostPortBody(target: string, get: (name: string) => string | undefined): { body: Record<string, unknown> } | { errors: FieldError[] } {
  const m = HOST_PORT.exec(target);
  if (m === null) return { errors: [{ pointer: '/target', message: 'must be host:port ([address]:port for IPv6)' }] };
  return connectionProbeBody({ host: m[1] ?? m[2], port: Number(m[3]) }, get);
}

// What every module that connects reads alike (tcp, tls, http): ip_protocol and timeout_ms, added to `body`.
export function connectionProbeBody(body: Record<string, unknown>, get: (name: string) => string | undefined): { body: Record<string, unknown> } | { errors: FieldError[] } {
  const protocol = get('ip_protocol');
  if (protocol !== undefined && protocol !== 'ip4' && protocol !== 'ip6') return { errors: [{ pointer: '/ip_protocol', message: 'must be ip4 or ip6' }] };
  if (protocol !== undefined) body['ipVersion'] = protocol === 'ip4' ? 4 : 6;
  const timeout = integerParam(get('timeout_ms'));
  if (timeout !== undefined) body['timeoutMs'] = timeout;
  return { body };
}

// Where a field error of those lands among the query parameters.
export const HOST_PORT_POINTERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/host$/, '/target'],
  [/^\/port$/, '/target'],
  [/^\/ipVersion$/, '/ip_protocol'],
  [/^\/timeoutMs$/, '/timeout_ms'],
];
