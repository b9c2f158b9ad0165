import { PROBLEMS, type ProblemCode } from '../http/problems';
import { dnsRequestSchema, dnsResolverResultSchema, dnsResultSchema } from '../schemas/dns';
import { pingRequestSchema, pingResultSchema } from '../schemas/ping';
import { problemSchema } from '../schemas/problem';
import { PROBE_PARAMS } from '../probe/query';

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
const problemResponse = (codes: ProblemCode[]) => ({
  description: codes.map((c) => `\`${c}\`: ${PROBLEMS[c].title}`).join('; '),
  content: { 'application/problem+json': { schema: ref('Problem') } },
});

const rateLimitHeaders = {
  RateLimit: { description: 'IETF draft: remaining quota and seconds to reset, e.g. `"default";r=12;t=5`.', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'IETF draft: quota and window, e.g. `"default";q=30;w=60`.', schema: { type: 'string' } },
  'X-RateLimit-Limit': { schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Seconds until the bucket is full again.', schema: { type: 'integer' } },
};

function statusGroups(codes: ProblemCode[]): Record<string, ReturnType<typeof problemResponse>> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const c of codes) byStatus.set(PROBLEMS[c].status, [...(byStatus.get(PROBLEMS[c].status) ?? []), c]);
  return Object.fromEntries([...byStatus].map(([s, cs]) => [String(s), problemResponse(cs)]));
}

const COMMON_TOOL_PROBLEMS: ProblemCode[] = [
  'invalid-json',
  'validation-failed',
  'request-timeout',
  'payload-too-large',
  'unsupported-media-type',
  'rate-limited',
  'too-many-concurrent',
  'overloaded',
  'engine-unavailable',
  'internal-error',
];

function toolPath(summary: string, requestSchema: string, resultSchema: string, extraProblems: ProblemCode[]) {
  const problems = statusGroups([...COMMON_TOOL_PROBLEMS, ...extraProblems]);
  return {
    post: {
      summary,
      requestBody: { required: true, content: { 'application/json': { schema: ref(requestSchema) } } },
      responses: {
        '200': { description: 'A measurement was made.', headers: rateLimitHeaders, content: { 'application/json': { schema: ref(resultSchema) } } },
        ...problems,
        '405': problemResponse(['method-not-allowed']),
      },
    },
    options: { summary: 'CORS preflight', responses: { '204': { description: 'Preflight answer.' } } },
  };
}

export function buildOpenApi(resolverIds: readonly string[], version: string): object {
  return {
    openapi: '3.1.0',
    info: {
      title: 'nettools',
      version,
      description: 'Network diagnostics over HTTP: ICMP ping and multi-resolver DNS. Errors are RFC 9457 problem details.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths: {
      '/api/tools/ping': toolPath('ICMP echo test of one host: reachability and latency', 'PingRequest', 'PingResult', [
        'host-not-found',
        'target-forbidden',
        'target-rate-limited',
      ]),
      '/api/tools/dns': toolPath('A, AAAA, MX, TXT records of one domain from several recursive resolvers at once', 'DnsRequest', 'DnsResult', [
        'upstream-timeout',
      ]),
      '/health': {
        get: {
          summary: 'Liveness',
          responses: {
            '200': {
              description: 'The server is up.',
              content: { 'application/json': { schema: { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } } } },
            },
          },
        },
      },
      '/openapi.json': { get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1 document.' } } } },
      '/probe': {
        get: {
          summary: 'blackbox_exporter-compatible probe: one ping or DNS measurement as Prometheus metrics',
          description:
            'Same rate limits and target policy as the tool endpoints. A target without an address, or no resolver answering, is probe_success 0; bad parameters and refusals are problems.',
          parameters: Object.entries(PROBE_PARAMS).map(([name, description]) => ({
            name,
            in: 'query',
            required: name === 'module' || name === 'target',
            description,
            schema: { type: 'string' },
          })),
          responses: {
            '200': { description: 'probe_success, probe_duration_seconds, probe_icmp_* or probe_dns_* metrics.', headers: rateLimitHeaders, content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } },
            ...statusGroups(['validation-failed', 'target-forbidden', 'target-rate-limited', 'rate-limited', 'too-many-concurrent', 'overloaded', 'engine-unavailable', 'internal-error']),
          },
        },
      },
      '/metrics': {
        get: {
          summary: 'Prometheus text exposition (absent when NETTOOLS_METRICS=false)',
          responses: {
            '200': { description: 'Metrics.', content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } },
            '404': problemResponse(['not-found']),
          },
        },
      },
    },
    components: {
      schemas: {
        PingRequest: component(pingRequestSchema),
        PingResult: component(pingResultSchema),
        DnsRequest: component(dnsRequestSchema(resolverIds)),
        DnsResult: component(dnsResultSchema),
        DnsResolverResult: component(dnsResolverResultSchema),
        Problem: component(problemSchema),
      },
      responses: { NotFound: problemResponse(['not-found']) },
      headers: {
        'X-Request-Id': {
          description: 'On every response: the caller\'s own X-Request-Id when it is 1-64 of A-Z a-z 0-9 . _ : -, else a fresh UUID. Also in the log line.',
          schema: { type: 'string' },
        },
      },
    },
  };
}
