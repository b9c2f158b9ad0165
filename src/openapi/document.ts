import { FAILURE_PROBLEMS } from '../http/refusal';
import { PROBLEMS, type ProblemCode } from '../problems/codes';
import { problemSchema } from '../problems/schema';
import { COMMON_PROBE_PARAMS } from '../probe/query';
import { hasProbe, type Tool } from '../tools/tool';
import { describeProblems, INTRODUCTION, problemHeaders, RATE_LIMIT_HEADERS, REQUEST_ID_HEADER, TAGS } from './descriptions';
import { LIMITS_SCHEMA } from './limits-schema';
import { LOCATION_SCHEMA, LOCATIONS_PATH } from './locations-schema';
import { problemExample } from './problem-examples';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

// ajv identifies schemas by $id; OpenAPI by components. Same objects, re-addressed.
function component(schema: unknown): Json {
  if (Array.isArray(schema)) return schema.map(component);
  if (schema === null || typeof schema !== 'object') return schema as Json;
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$id') continue;
    out[k] = k === '$ref' && typeof v === 'string' && !v.startsWith('#') ? `#/components/schemas/${v}` : component(v);
  }
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const problemResponse = (codes: ProblemCode[], headers: object = {}) => ({
  description: describeProblems(codes),
  headers: { ...headers, ...problemHeaders(codes) },
  content: { 'application/problem+json': { schema: ref('Problem'), examples: Object.fromEntries(codes.map((c) => [c, { summary: c, value: problemExample(c) }])) } },
});

const rateLimitHeaders = { 'X-Request-Id': REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS };

// `headers`: what every one of these responses carries besides what its problems add.
function statusGroups(codes: ProblemCode[], headers: object = {}): Record<string, ReturnType<typeof problemResponse>> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const c of new Set(codes)) byStatus.set(PROBLEMS[c].status, [...(byStatus.get(PROBLEMS[c].status) ?? []), c]);
  return Object.fromEntries([...byStatus].map(([s, cs]) => [String(s), problemResponse(cs, headers)]));
}

// What any tool request may be refused with before or around its tool.
const COMMON_TOOL_PROBLEMS: ProblemCode[] = [
  'invalid-api-key',
  'invalid-json',
  'validation-failed',
  'request-timeout',
  'payload-too-large',
  'unsupported-media-type',
  'rate-limited',
  'too-many-concurrent',
  'overloaded',
  'rate-limit-store-unavailable',
  'engine-unavailable',
  'shutting-down',
  'location-offline', // only as one location's entry of a 200 with `locations`
  'internal-error',
];

type AnyTool = Tool<any, any>;

// The streamed forms of a tool's 200 (CONTRACT "Streamed results"): one component per tool naming every
// event a stream of it may carry; NDJSON lines and SSE `data:` lines are `data` of one of them.
const streamEventName = (tool: AnyTool) => `${tool.resultSchema.$id.replace(/Result$/, '')}StreamEvent`;

function eventSchema(event: string, data: unknown, description: string): Json {
  return { type: 'object', description, required: ['event', 'data'], properties: { event: { const: event, description: 'The event name.' }, data: component(data) } };
}

function streamEventSchema(tool: AnyTool): Json {
  const spec = tool.streamEvents;
  const items = Object.entries(spec?.items ?? {}).map(([name, data]) => eventSchema(name, data, `A result as it arrives: ${name}.`));
  return {
    description: `One event of a streamed ${tool.name} response: an NDJSON line as it stands; in SSE, \`event:\` is its \`event\` and \`data:\` its \`data\` (with \`id:\` counting from 1).`,
    oneOf: [
      eventSchema('start', spec?.start ?? { type: 'object' }, 'First: what will be measured.'),
      ...items,
      spec?.summary === undefined ? eventSchema('summary', ref(tool.resultSchema.$id), 'Last on success: exactly the JSON 200 body.') : eventSchema('summary', spec.summary, 'Last on success: the JSON 200 body, as its schema says.'),
      eventSchema('problem', ref('Problem'), 'Last on a failure after the start; with `locations`, one location\'s failure (its data carries `location`).'),
      eventSchema('locations', ref(locatedName(tool)), 'Last with `locations`: exactly the JSON 200 body.'),
    ],
  };
}

const STREAM_DESCRIPTION =
  'A measurement was made (with `locations`: at every location named; a location that failed is a `problem` entry in the body, the request is still a 200). With `locations`, every event\'s data carries the `location` it comes from: each location has its own `start`, results and `summary` or `problem`, and the stream ends with one `locations` event whose data is the JSON body. With `Accept: application/x-ndjson` or `text/event-stream` (highest q wins, a tie goes to JSON) the result streams as events: `start`, each result as it arrives, then `summary` (the JSON body) or one `problem`. Refusals before the start stay problem responses. Streams carry `Cache-Control: no-store` and `X-Accel-Buffering: no`; SSE sends a `: keep-alive` comment after 15 s without an event; a reader more than 256 KiB behind is cut off. Each event is a whole chunk when it is written: NDJSON lines after the first start with one space, and in SSE each event or comment after the first is preceded by an empty comment line `:`.';

function successContent(tool: AnyTool) {
  const events = ref(streamEventName(tool));
  return {
    'application/json': { schema: { oneOf: [ref(tool.resultSchema.$id), ref(locatedName(tool))] } },
    'application/x-ndjson': { schema: events },
    'text/event-stream': { schema: { type: 'string', description: `SSE blocks of \`event:\`, \`id:\` and one \`data:\` line, each data a ${streamEventName(tool)}'s \`data\`.` } },
  };
}

function toolPath(tool: AnyTool, resolverIds: readonly string[]) {
  const problems = statusGroups([...COMMON_TOOL_PROBLEMS, ...tool.failures.map((f) => FAILURE_PROBLEMS[f])], RATE_LIMIT_HEADERS);
  return {
    post: {
      operationId: tool.name,
      tags: ['tools'],
      summary: tool.summary,
      security: OPTIONAL_KEY,
      requestBody: { required: true, content: { 'application/json': { schema: ref(tool.requestSchema(resolverIds).$id) } } },
      responses: {
        '200': { description: STREAM_DESCRIPTION, headers: rateLimitHeaders, content: successContent(tool) },
        ...problems,
        '405': problemResponse(['method-not-allowed']),
      },
    },
  };
}

function probePath(all: readonly AnyTool[]) {
  // Only tools with a probe module answer on /probe.
  const tools = all.filter(hasProbe);
  const params = { ...COMMON_PROBE_PARAMS, ...Object.assign({}, ...tools.map((t) => t.probe.params)) } as Record<string, string>;
  const refusals: ProblemCode[] = ['invalid-api-key', 'validation-failed', 'rate-limited', 'too-many-concurrent', 'overloaded', 'engine-unavailable', 'internal-error'];
  const toolRefusals = tools.flatMap((t) => t.failures.filter((f) => !t.probe.failuresAsMetrics.has(f)).map((f) => FAILURE_PROBLEMS[f]));
  return {
    get: {
      operationId: 'probe',
      tags: ['operations'],
      summary: 'blackbox_exporter-compatible probe: one measurement as Prometheus metrics',
      security: OPTIONAL_KEY,
      description: `Modules: ${tools.map((t) => `${t.probe.module} (${t.path})`).join(', ')}. Same rate limits and target policy as the tool endpoints. A target without an address, or no resolver answering, is probe_success 0; \`nettools_probe_dns_outcome\` and \`nettools_probe_icmp_resolve_outcome\` tell a name that does not exist from resolvers that gave no answer. Bad parameters and refusals are problems.`,
      parameters: Object.entries(params).map(([name, description]) => ({ name, in: 'query', required: name === 'module' || name === 'target', description, schema: { type: 'string' } })),
      responses: {
        '200': { description: 'probe_success, probe_duration_seconds, probe_icmp_* or probe_dns_* metrics.', headers: rateLimitHeaders, content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } },
        ...statusGroups([...refusals, ...toolRefusals], RATE_LIMIT_HEADERS),
      },
    },
  };
}

// A key is optional: without one the caller's address is limited under the `default` policy.
const OPTIONAL_KEY = [{}, { apiKey: [] }];
// Open to anyone, key or not, and never rate limited: said outright, so no reader (or linter) guesses.
const OPEN: never[] = [];

const LIMITS_PATH = {
  get: {
    operationId: 'limits',
    tags: ['account'],
    summary: "The caller's plan and budget right now (its API key's, or its address's); spends no token",
    security: OPTIONAL_KEY,
    responses: {
      '200': {
        description: 'The plan and what is left of its budget.',
        content: { 'application/json': { schema: ref('Limits') } },
      },
      ...statusGroups(['invalid-api-key', 'rate-limited']),
    },
  },
};

const FIXED_PATHS = {
  '/health': {
    get: {
      operationId: 'health',
      tags: ['operations'],
      summary: 'Liveness',
      security: OPEN,
      responses: {
        '200': { description: 'The server is up.', content: { 'application/json': { schema: { type: 'object', required: ['status'], properties: { status: { const: 'ok', description: 'ok whenever the server answers.' } } } } } },
      },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'openApiDocument',
      tags: ['operations'],
      summary: 'This document',
      security: OPEN,
      responses: { '200': { description: 'OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  },
  '/': {
    get: {
      operationId: 'livePage',
      tags: ['operations'],
      security: OPEN,
      summary: 'Live page: a streamed ping drawn as it arrives, and each resolver\'s answers (every file served by this server)',
      responses: {
        '200': { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } },
        '304': { description: 'Not modified (If-None-Match matched the ETag).' },
      },
    },
  },
  '/docs': {
    get: {
      operationId: 'docs',
      tags: ['operations'],
      security: OPEN,
      summary: 'Interactive API reference rendered from this document (every file served by this server)',
      responses: {
        '200': { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } },
        '304': { description: 'Not modified (If-None-Match matched the ETag).' },
      },
    },
  },
  '/metrics': {
    get: {
      operationId: 'metrics',
      tags: ['operations'],
      summary: 'Prometheus text exposition (absent when NETTOOLS_METRICS=false)',
      security: OPEN,
      responses: {
        '200': { description: 'Metrics.', content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } },
        '404': problemResponse(['not-found']),
      },
    },
  },
};

// The 200 body of a request with `locations`.
const locatedName = (tool: AnyTool) => `${tool.resultSchema.$id.replace(/Result$/, '')}Located`;

function locatedSchema(tool: AnyTool): Json {
  return {
    type: 'object',
    description: 'A request with `locations`: each location\'s own answer, and what they say together.',
    required: ['locations', 'verdict'],
    properties: {
      locations: {
        type: 'object',
        description: 'By location name, in the order asked: that location\'s 200 body, or `{ "problem": ... }` as a request of its own would have been answered there (`location-offline` when its agent went away).',
        additionalProperties: { oneOf: [ref(tool.resultSchema.$id), { type: 'object', additionalProperties: false, required: ['problem'], properties: { problem: ref('Problem') } }] },
      },
      verdict: {
        ...(tool.verdictSchema ?? { type: 'object' }),
        description: 'ping, traceroute, mtr: `{ "reached", "of" }`, from how many locations the target was reached of how many asked. dns: `{ "consistent", "answered", "of" }`, whether every location and its resolvers saw the same records.',
      },
    },
  };
}

function schemas(tools: readonly AnyTool[], resolverIds: readonly string[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const tool of tools) {
    out[locatedName(tool)] = locatedSchema(tool);
    for (const schema of [tool.requestSchema(resolverIds), tool.resultSchema, ...tool.components]) out[schema.$id] = component(schema);
    out[streamEventName(tool)] = streamEventSchema(tool);
  }
  out['Problem'] = component(problemSchema);
  out['Limits'] = LIMITS_SCHEMA;
  out['Location'] = LOCATION_SCHEMA;
  return out;
}

export function buildOpenApi(tools: readonly AnyTool[], resolverIds: readonly string[], version: string): object {
  return {
    openapi: '3.1.0',
    info: {
      title: 'nettools',
      version,
      description: INTRODUCTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // Relative: the document describes the server that served it, whatever name it was reached by.
    servers: [{ url: '/', description: 'The server this document was fetched from.' }],
    tags: TAGS,
    paths: {
      ...Object.fromEntries(tools.map((t) => [t.path, toolPath(t, resolverIds)])),
      '/health': FIXED_PATHS['/health'],
      '/openapi.json': FIXED_PATHS['/openapi.json'],
      '/docs': FIXED_PATHS['/docs'],
      '/': FIXED_PATHS['/'],
      '/api/limits': LIMITS_PATH,
      '/api/locations': LOCATIONS_PATH,
      '/probe': probePath(tools),
      '/metrics': FIXED_PATHS['/metrics'],
    },
    components: {
      schemas: schemas(tools, resolverIds),
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            '`Authorization: Bearer nt_...`: a key issued by the operator gives its plan\'s budget instead of the address\'s. A malformed, unknown, revoked or expired key is 401 `invalid-api-key` (never served as anonymous) and spends a token of the address\'s budget.',
        },
      },
    },
  };
}
