import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import type { FieldError } from '../problems/codes';
import { HTTP_URL_MESSAGE, parseHttpUrl } from './http-url';
import { FormatKeeper, PARSERS, type FormatParsers, type FormatValues } from './format-values';
import { assertUniqueItemsTyped } from './unique-items';

// `unlisted`: how many more distinct errors the body has beyond those in `errors`.
export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FieldError[]; unlisted: number };

// The most errors a refusal lists. Every error of a small body is listed, so a client can fix them all
// at once; but a 4 KiB body of wrong array items or unknown fields has thousands, and listing each cost
// a 500 KB answer and 75 times the CPU of an ordinary 400. The rest are counted, not listed.
export const MAX_LISTED_ERRORS = 10;
export type Validate<T> = (body: Record<string, unknown>) => Parsed<T>;

const FORMAT_MESSAGES: Record<string, string> = {
  host: 'must be a host name, an IPv4 literal or an IPv6 literal, without scheme, port, path or spaces',
  'http-url': HTTP_URL_MESSAGE,
  domain: 'must be a domain name (labels of 1-63 letters, digits, "-" or "_"; at most 253 characters) or an IP literal',
};

// What comes after the schema: canonical forms, taking the values the formats made (`formats`).
export type Normalize<T> = (value: T, formats: FormatValues) => T;

// One compiler for every request schema, with the formats they use; schemas are compiled once, at start.
// The `host` and `domain` formats keep the value they parsed for normalize (format-values.ts); `parsers`
// is a test's seam to count the parses.
export function createSchemaCompiler(parsers: FormatParsers = PARSERS): <T>(schema: object, normalize: Normalize<T>) => Validate<T> {
  const ajv = new Ajv2020({ allErrors: true, useDefaults: true, strict: true, coerceTypes: false });
  const kept = new FormatKeeper(parsers);
  ajv.addFormat('host', { type: 'string', validate: (s: string) => kept.checkHost(s) });
  ajv.addFormat('domain', { type: 'string', validate: (s: string) => kept.checkDomain(s) });
  ajv.addFormat('http-url', { type: 'string', validate: (s: string) => typeof parseHttpUrl(s) !== 'string' });
  return <T>(schema: object, normalize: Normalize<T>): Validate<T> => {
    assertUniqueItemsTyped(schema);
    const validate = ajv.compile(schema);
    const enumMessages = new Map<string, string>();
    return (body) => (validate(body) ? { ok: true, value: normalize(body as unknown as T, kept.values) } : failure(validate, enumMessages));
  };
}

// ajv can report one field twice (the same fact through two keywords): among the few listed, repeats
// are found by a scan; past them, the rest are told apart by a set, made only for such a body.
function failure(validate: ValidateFunction, enumMessages: Map<string, string>): { ok: false; errors: FieldError[]; unlisted: number } {
  const errors: FieldError[] = [];
  let rest: Set<string> | null = null;
  for (const e of validate.errors ?? []) {
    const field = toFieldError(e, enumMessages);
    if (errors.some((f) => f.pointer === field.pointer && f.message === field.message)) continue;
    if (errors.length < MAX_LISTED_ERRORS) errors.push(field);
    else (rest ??= new Set()).add(`${field.pointer}\u0000${field.message}`);
  }
  return { ok: false, errors, unlisted: rest === null ? 0 : rest.size };
}

// `enumMessages`: an enum's message by its place in the schema, made once: it lists every allowed value,
// and a body of many wrong items would otherwise build it again for each.
function toFieldError(e: ErrorObject, enumMessages: Map<string, string>): FieldError {
  switch (e.keyword) {
    case 'required':
      return { pointer: `${e.instancePath}/${escapePointer(String(e.params['missingProperty']))}`, message: 'is required' };
    case 'additionalProperties':
      return { pointer: `${e.instancePath}/${escapePointer(String(e.params['additionalProperty']))}`, message: 'is not a known field' };
    case 'format':
      return { pointer: e.instancePath, message: FORMAT_MESSAGES[String(e.params['format'])] ?? `must match format ${e.params['format']}` };
    case 'enum': {
      let message = enumMessages.get(e.schemaPath);
      if (message === undefined) enumMessages.set(e.schemaPath, (message = `must be one of ${(e.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`));
      return { pointer: e.instancePath, message };
    }
    default:
      return { pointer: e.instancePath, message: e.message ?? 'is invalid' };
  }
}

// RFC 6901: "~" and "/" inside a member name.
export function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
