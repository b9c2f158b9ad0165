import Ajv2020 from 'ajv/dist/2020';
import { LOCATION_NAME_SCHEMA, MAX_LABELS } from '../config/location';
import { fail, ok, type Result } from '../util/result';

// What an agent says first, and the one thing the hub reads from it before it is listed. The hub
// relays and never trusts: an agent's message is checked like a client's request body.
export interface Hello {
  type: 'hello';
  location: string;
  labels: Record<string, string>;
  tools: string[];
  version: string;
}

export const LABELS_SCHEMA = {
  type: 'object',
  maxProperties: MAX_LABELS,
  propertyNames: { pattern: '^[a-z0-9_-]{1,32}$' },
  additionalProperties: { type: 'string', pattern: '^[\\x20-\\x2b\\x2d-\\x3c\\x3e-\\x7e]{1,64}$' },
} as const;
export const TOOLS_SCHEMA = { type: 'array', maxItems: 32, uniqueItems: true, items: { type: 'string', pattern: '^[a-z0-9-]{1,32}$' } } as const;
export const VERSION_SCHEMA = { type: 'string', pattern: '^[\\x21-\\x7e]{1,64}$' } as const;

export const HELLO_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'location', 'labels', 'tools', 'version'],
  properties: { type: { const: 'hello' }, location: LOCATION_NAME_SCHEMA, labels: LABELS_SCHEMA, tools: TOOLS_SCHEMA, version: VERSION_SCHEMA },
} as const;

// Compiled once, when the hub's module is loaded at start.
const validate = new Ajv2020({ allErrors: false, strict: true }).compile<Hello>(HELLO_SCHEMA);

export function readHello(text: string): Result<Hello, 'bad-hello'> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('bad-hello', 'not JSON');
  }
  if (validate(value)) return ok(value);
  const first = validate.errors?.[0];
  return fail('bad-hello', `${first?.instancePath || '/'} ${first?.message ?? 'is not a hello'}`);
}
