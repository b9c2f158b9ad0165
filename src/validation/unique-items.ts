// ajv checks `uniqueItems` of untyped items with a deep equality that calls the items' own `valueOf`
// and `toString`: for a request body those are the client's properties, and one that is not a function
// threw from inside the validator (a request that ended the server). Typed scalar items are compared by
// value instead, objects and arrays of the wrong type skipped. So a request schema may ask for unique
// items only of a declared scalar type; this is checked when the schema is compiled, at start.
const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null']);

export class UnsafeSchemaError extends Error {
  readonly code = 'unsafe-schema';
}

export function assertUniqueItemsTyped(schema: unknown, path = '#'): void {
  if (Array.isArray(schema)) return schema.forEach((s, i) => assertUniqueItemsTyped(s, `${path}/${i}`));
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as Record<string, unknown>;
  if (node['uniqueItems'] === true && !hasScalarType(node['items'])) {
    throw new UnsafeSchemaError(`${path}: uniqueItems needs items of a declared scalar type`);
  }
  for (const [key, value] of Object.entries(node)) {
    // examples and defaults are data, not schemas
    if (key !== 'examples' && key !== 'default' && key !== 'enum' && key !== 'const') assertUniqueItemsTyped(value, `${path}/${key}`);
  }
}

function hasScalarType(items: unknown): boolean {
  if (typeof items !== 'object' || items === null || Array.isArray(items)) return false;
  const type = (items as { type?: unknown }).type;
  const types = Array.isArray(type) ? type : [type];
  return types.length > 0 && types.every((t) => typeof t === 'string' && SCALARS.has(t));
}
