import { LOCATION_NAME_SCHEMA } from '../config/location';
import type { JsonSchema, Tool } from './tool';

// Where a measurement runs: named locations, every connected one, or any N of them. Absent, the server
// measures itself and answers exactly as without locations.
export type LocationsSelector = readonly string[] | 'all' | number;

// The schema allows up to this many; NETTOOLS_MAX_LOCATIONS_PER_REQUEST may allow fewer (checked where the
// connected locations are known).
export const LOCATIONS_SCHEMA_MAX = 64;

export const LOCATIONS_PROPERTY = {
  description:
    'Where to measure: location names (GET /api/locations), "all" connected locations, or any N of them. Absent: this server measures itself and the answer is its own. Present: one result per location and a verdict.',
  oneOf: [
    { type: 'array', items: LOCATION_NAME_SCHEMA, minItems: 1, maxItems: LOCATIONS_SCHEMA_MAX, uniqueItems: true },
    { const: 'all' },
    { type: 'integer', minimum: 1, maximum: LOCATIONS_SCHEMA_MAX },
  ],
  examples: [['local'], 'all', 3],
} as const;

function withLocationsField(schema: JsonSchema): JsonSchema {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  return { ...schema, properties: { ...properties, locations: LOCATIONS_PROPERTY } };
}

// Every tool takes `locations` the same way: its request schemas gain the field, nothing else changes. The
// tool itself never reads it: the HTTP layer takes it off before the tool runs.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function locatable<T extends Tool<any, any>>(tool: T): T {
  const stream = tool.streamRequestSchema;
  return {
    ...tool,
    requestSchema: (ids: readonly string[]) => withLocationsField(tool.requestSchema(ids)),
    ...(stream === undefined ? {} : { streamRequestSchema: (ids: readonly string[]) => withLocationsField(stream.call(tool, ids)) }),
  };
}
