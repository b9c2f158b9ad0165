import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import type { FieldError } from '../problems/codes';
import { parseDomain, parseHost } from './names';
import { assertUniqueItemsTyped } from './unique-items';

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };
export type Validate<T> = (body: Record<string, unknown>) => Parsed<T>;

const FORMAT_MESSAGES: Record<string, string> = {
  host: 'must be a host name, an IPv4 literal or an IPv6 literal, without scheme, port, path or spaces',
  domain: 'must be a domain name (labels of 1-63 letters, digits, "-" or "_"; at most 253 characters), not an IP literal',
};

// One compiler for every request schema, with the formats they use; schemas are compiled once, at start.
export function createSchemaCompiler(): <T>(schema: object, normalize: (value: T) => T) => Validate<T> {
  const ajv = new Ajv2020({ allErrors: true, useDefaults: true, strict: true, coerceTypes: false });
  ajv.addFormat('host', { type: 'string', validate: (s: string) => parseHost(s) !== null });
  ajv.addFormat('domain', { type: 'string', validate: (s: string) => parseDomain(s) !== null });
  return <T>(schema: object, normalize: (value: T) => T): Validate<T> => {
    assertUniqueItemsTyped(schema);
    const validate = ajv.compile(schema);
    return (body) => (validate(body) ? { ok: true, value: normalize(body as unknown as T) } : failure(validate));
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
      return { pointer: `${e.instancePath}/${escapePointer(String(e.params['missingProperty']))}`, message: 'is required' };
    case 'additionalProperties':
      return { pointer: `${e.instancePath}/${escapePointer(String(e.params['additionalProperty']))}`, message: 'is not a known field' };
    case 'format':
      return { pointer: e.instancePath, message: FORMAT_MESSAGES[String(e.params['format'])] ?? `must match format ${e.params['format']}` };
    case 'enum':
      return { pointer: e.instancePath, message: `must be one of ${(e.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    default:
      return { pointer: e.instancePath, message: e.message ?? 'is invalid' };
  }
}

// RFC 6901: "~" and "/" inside a member name.
export function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
