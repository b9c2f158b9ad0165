import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { FailureCode, ToolFailure } from '../tools/outcome';
import type { Tool } from '../tools/tool';

// The hub relays what an agent measured and never trusts it: every event and every outcome is checked
// against the tool's own schemas (the ones its OpenAPI document publishes) before a client sees it. An
// agent can make its own location's result wrong, never its shape, never another location's.

// What each failure carries besides code and detail; the hub's problem body is built from these alone.
const FAILURE_EXTRAS: Readonly<Record<FailureCode, readonly string[]>> = {
  'host-not-found': ['dns'],
  'target-forbidden': ['address', 'range'],
  'target-rate-limited': ['retryAfterSeconds'],
  'invalid-field': ['fields'],
  'engine-unavailable': [],
  'engine-busy': ['retryAfterSeconds'],
  'upstream-timeout': ['resolvers'],
  'upstream-failed': ['resolvers'],
  'upstream-busy': ['retryAfterSeconds'],
  'store-unavailable': ['retryAfterSeconds'],
  'caller-rate-limited': ['retryAfterSeconds'],
  'shutting-down': [],
  'location-offline': [],
  aborted: [],
  'internal-error': [],
};

const TEXT = (max: number) => ({ type: 'string', maxLength: max }) as const;

const FAILURE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'detail'],
  properties: {
    code: { enum: Object.keys(FAILURE_EXTRAS) },
    detail: TEXT(1000),
    retryAfterSeconds: { type: 'integer', minimum: 0, maximum: 86_400 },
    address: TEXT(64),
    range: TEXT(64),
    dns: { enum: ['nxdomain', 'no-data'] },
    fields: {
      type: 'array',
      maxItems: 32,
      items: { type: 'object', additionalProperties: false, required: ['path', 'message'], properties: { path: { type: 'array', maxItems: 16, items: { type: ['string', 'integer'] } }, message: TEXT(500) } },
    },
    resolvers: { type: 'array', maxItems: 32, items: { type: 'object', maxProperties: 16 } },
    durationMs: { type: 'number', minimum: 0 },
    // target-forbidden from the http check, when a redirect was refused: optional, so not among the extras.
    url: TEXT(2048),
    redirects: { type: 'array', maxItems: 5, items: { type: 'object', maxProperties: 16 } },
  },
} as const;

// One tool's checks, compiled once when the hub starts.
export interface ToolOutputCheck {
  event(name: string, data: unknown): boolean; // `start` or one of the tool's item events
  value(stream: boolean, value: unknown): boolean; // the 200 body (a stream's summary where it differs)
}

export interface OutputChecks {
  tool(name: string): ToolOutputCheck | undefined;
  failure(raw: unknown): ToolFailure | null; // null: not a failure this API has
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function compileOutputChecks(tools: ReadonlyArray<Tool<any, any>>): OutputChecks {
  const ajv = new Ajv2020({ allErrors: false, strict: false, validateFormats: false });
  for (const tool of tools) for (const component of tool.components) if (ajv.getSchema(component.$id) === undefined) ajv.addSchema(component);
  const checks = new Map(tools.map((tool) => [tool.name, toolCheck(ajv, tool)]));
  const failure = ajv.compile(FAILURE_SCHEMA);
  return {
    tool: (name) => checks.get(name),
    failure(raw) {
      if (!failure(raw)) return null;
      const record = raw as unknown as Record<string, unknown>;
      const extras = FAILURE_EXTRAS[record.code as FailureCode];
      return extras.every((field) => record[field] !== undefined) ? (raw as ToolFailure) : null;
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function toolCheck(ajv: Ajv2020, tool: Tool<any, any>): ToolOutputCheck {
  const spec = tool.streamEvents;
  const events = new Map<string, ValidateFunction>();
  if (spec !== undefined) {
    events.set('start', ajv.compile(spec.start));
    for (const [name, schema] of Object.entries(spec.items)) events.set(name, ajv.compile(schema));
  }
  const { $id: _id, ...result } = tool.resultSchema;
  const json = ajv.compile(result);
  const summary = spec?.summary === undefined ? json : ajv.compile(spec.summary);
  return {
    event: (name, data) => events.get(name)?.(data) === true,
    value: (stream, value) => (stream ? summary(value) : json(value)),
  };
}
