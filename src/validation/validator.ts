import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import type { FieldError } from '../http/problems';
import { dnsRequestSchema } from '../schemas/dns';
import { pingRequestSchema } from '../schemas/ping';
import type { DnsRequest, PingRequest } from '../schemas/requests';
import { parseDomain, parseHost } from './names';

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export interface RequestValidators {
  ping(body: Record<string, unknown>): Parsed<PingRequest>;
  dns(body: Record<string, unknown>): Parsed<DnsRequest>;
}

const FORMAT_MESSAGES: Record<string, string> = {
  host: 'must be a host name, an IPv4 literal or an IPv6 literal, without scheme, port, path or spaces',
  domain: 'must be a domain name (labels of 1-63 letters, digits, "-" or "_"; at most 253 characters), not an IP literal',
};

// Compiled once at start; the same schema objects feed /openapi.json.
export function createValidators(resolverIds: readonly string[]): RequestValidators {
  const ajv = new Ajv2020({ allErrors: true, useDefaults: true, strict: true, coerceTypes: false });
  ajv.addFormat('host', { type: 'string', validate: (s: string) => parseHost(s) !== null });
  ajv.addFormat('domain', { type: 'string', validate: (s: string) => parseDomain(s) !== null });
  const ping = ajv.compile(pingRequestSchema);
  const dns = ajv.compile(dnsRequestSchema(resolverIds));
  return {
    ping(body) {
      if (!ping(body)) return failure(ping);
      const value = body as unknown as PingRequest;
      value.host = (parseHost(value.host) as { value: string }).value;
      return { ok: true, value };
    },
    dns(body) {
      if (!dns(body)) return failure(dns);
      const value = body as unknown as DnsRequest;
      value.domain = parseDomain(value.domain) as string;
      return { ok: true, value };
    },
  };
}

// ajv can report one field twice (the same fact through two keywords); a body has few errors, so
// duplicates are found by a scan rather than a set.
function failure(validate: ValidateFunction): { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  for (const e of validate.errors ?? []) {
    const field = toFieldError(e);
    if (!errors.some((f) => f.pointer === field.pointer && f.message === field.message)) errors.push(field);
  }
  return { ok: false, errors };
}

function toFieldError(e: ErrorObject): FieldError {
  switch (e.keyword) {
    case 'required':
      return { pointer: `${e.instancePath}/${escape(String(e.params['missingProperty']))}`, message: 'is required' };
    case 'additionalProperties':
      return { pointer: `${e.instancePath}/${escape(String(e.params['additionalProperty']))}`, message: 'is not a known field' };
    case 'format':
      return { pointer: e.instancePath, message: FORMAT_MESSAGES[String(e.params['format'])] ?? `must match format ${e.params['format']}` };
    case 'enum':
      return { pointer: e.instancePath, message: `must be one of ${(e.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    default:
      return { pointer: e.instancePath, message: e.message ?? 'is invalid' };
  }
}

// RFC 6901: "~" and "/" inside a member name.
function escape(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
