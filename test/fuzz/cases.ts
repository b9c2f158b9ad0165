import fc from 'fast-check';
import { requestBody, type Schema } from './from-schema';
import { BAD_UTF8, PROTO_NAMES } from './hostile';
import { toBytes, showBytes } from './json-text';
import { nameText } from './names';
import { probeQuery } from './query-text';

// One HTTP request the fuzzer sends.
export interface Case {
  method: string;
  path: string; // with the query
  headers: Record<string, string>;
  body?: Buffer;
  chunked?: boolean; // the body sent with Transfer-Encoding: chunked, in two chunks, without a length
}

export const BODY_LIMIT = 4096;

export function showCase(c: Case): string {
  const headers = Object.entries(c.headers).map(([k, v]) => `${k}: ${v}`).join('; ');
  const framing = c.chunked ? ', chunked' : '';
  return `${c.method} ${c.path} [${headers}]${c.body ? ` body (${c.body.length} bytes${framing}): ${showBytes(c.body)}` : ''}`;
}

// What the fuzzer reads from the live /openapi.json.
export interface ApiShape {
  tools: Array<{ path: string; schema: Schema }>;
  probe: { params: string[]; modules: string[] };
  resolverIds: string[];
  apiKey: string; // a valid key of the fuzz plan, so keyed requests are fuzzed too
}

export function readApiShape(doc: any, resolverIds: string[], apiKey: string): ApiShape {
  const tools: ApiShape['tools'] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    const ref: unknown = item.post?.requestBody?.content?.['application/json']?.schema?.$ref;
    if (typeof ref === 'string') tools.push({ path, schema: doc.components.schemas[ref.split('/').pop() as string] });
  }
  const probe = doc.paths['/probe']?.get;
  const params: string[] = (probe?.parameters ?? []).map((p: { name: string }) => p.name);
  const modules = [...String(probe?.description ?? '').matchAll(/(\w+) \(\/api\//g)].map((m) => m[1] as string);
  if (tools.length === 0 || params.length === 0 || modules.length === 0) throw new Error('the OpenAPI document lists no tool request schema or probe parameters');
  return { tools, probe: { params, modules }, resolverIds, apiKey };
}

const OTHER_CONTENT_TYPES = ['application/json; charset=utf-8', 'APPLICATION/JSON;CHARSET=UTF-8', 'application/json;charset="utf-8"', 'application/json; charset=latin1', 'text/plain', 'application/problem+json', ''];
const contentType = fc.oneof({ arbitrary: fc.constant('application/json'), weight: 12 }, { arbitrary: fc.constantFrom(...OTHER_CONTENT_TYPES), weight: 1 });

// Key ids are the 8 characters after `nt_`: `toString` is one, and must be looked up as data.
function authorization(key: string): fc.Arbitrary<Record<string, string>> {
  const values = [`Bearer ${key}`, `Bearer ${key}x`, `Bearer ${key.slice(0, -1)}`, 'Bearer nt_', 'Bearer ', 'Bearer', 'bearer nt_AAAAAAAA', 'Basic Zm9vOmJhcg==', `Bearer ${key} ${key}`, `Bearer nt_toString${key.slice(11)}`, `Bearer nt___proto__${key.slice(12)}`];
  return fc.oneof({ arbitrary: fc.constant({}), weight: 19 }, { arbitrary: fc.constantFrom(...values).map((v) => ({ authorization: v })), weight: 1 });
}

// The body's bytes framed: as written, padded with whitespace to one of the limit's edges, with a BOM,
// or with bytes around it that make it invalid.
const framing = fc.oneof(
  { arbitrary: fc.constant((b: Buffer) => b), weight: 12 },
  { arbitrary: fc.constantFrom(BODY_LIMIT - 1, BODY_LIMIT, BODY_LIMIT + 1).map((n) => (b: Buffer) => (b.length < n ? Buffer.concat([b, Buffer.alloc(n - b.length, 0x20)]) : b)), weight: 2 },
  { arbitrary: fc.constantFrom([0xef, 0xbb, 0xbf], [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], [0x00], [0x20, 0x0a]).map((pre) => (b: Buffer) => Buffer.concat([Buffer.from(pre), b])), weight: 1 },
  { arbitrary: fc.constantFrom(...BAD_UTF8, [0x2c], [0x7d], [0x00], [0x78]).map((post) => (b: Buffer) => Buffer.concat([b, Buffer.from(post)])), weight: 1 },
);

function toolCase(tool: ApiShape['tools'][number], shape: ApiShape): fc.Arbitrary<Case> {
  const body = requestBody(tool.schema, { formats: { host: nameText, domain: nameText } });
  const chunked = fc.oneof({ arbitrary: fc.constant(false), weight: 9 }, { arbitrary: fc.constant(true), weight: 1 });
  return fc.tuple(body, framing, contentType, authorization(shape.apiKey), chunked).map(([json, frame, type, auth, inChunks]) => ({
    method: 'POST',
    path: tool.path,
    headers: { ...(type === '' ? {} : { 'content-type': type }), ...auth },
    body: frame(toBytes(json)),
    ...(inChunks ? { chunked: true } : {}),
  }));
}

// '/' is the live page (HTML): not an odd path any more; its neighbours are.
const ODD_PATHS = ['/page', '/page/', '/page/none.js', '/api', '/api/tools', '/api/tools/', '/API/TOOLS/DNS', '//api/tools/dns', '/api/tools/dns;x', '/api/tools/dns%00', '/%2e%2e/', ...PROTO_NAMES.map((n) => `/${n}`), ...PROTO_NAMES.map((n) => `/api/tools/${n}`)];

// Known paths with other methods, and unknown paths: 404 and 405 problems, never anything else.
function oddCase(shape: ApiShape): fc.Arbitrary<Case> {
  const paths = [...shape.tools.map((t) => t.path), ...shape.tools.map((t) => `${t.path}/`), '/probe', '/api/limits', '/health', '/', ...ODD_PATHS];
  return fc.tuple(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'), fc.constantFrom(...paths)).map(([method, path]): Case => ({
    method,
    path,
    headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
    ...(method === 'POST' ? { body: Buffer.from('{}') } : {}),
  }));
}

// Every kind of request, weighted toward tool bodies, where the schemas are.
export function caseArbitrary(shape: ApiShape): fc.Arbitrary<Case> {
  const probe = { ...shape.probe, resolverIds: shape.resolverIds };
  const query = (path: string) => fc.tuple(probeQuery(probe), authorization(shape.apiKey)).map(([q, auth]): Case => ({ method: 'GET', path: `${path}?${q}`, headers: auth }));
  return fc.oneof(
    ...shape.tools.map((t) => ({ arbitrary: toolCase(t, shape), weight: 12 })),
    { arbitrary: query('/probe'), weight: 5 },
    { arbitrary: query('/api/limits'), weight: 1 },
    { arbitrary: oddCase(shape), weight: 1 },
  );
}
