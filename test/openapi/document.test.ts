import Ajv2020 from 'ajv/dist/2020';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROBLEM_DESCRIPTIONS } from '../../src/openapi/descriptions';
import { buildOpenApi } from '../../src/openapi/document';
import { PROBLEMS } from '../../src/problems/codes';
import { dnsRequestSchema } from '../../src/tools/dns/schema';
import { pingRequestSchema } from '../../src/tools/ping/schema';
import { TOOLS } from '../../src/tools/registry';

const doc = buildOpenApi(TOOLS, ['r1', 'r2'], '1.2.3') as any;

test('document is OpenAPI 3.1 with the package version', () => {
  assert.is(doc.openapi, '3.1.0');
  assert.is(doc.info.version, '1.2.3');
});

test('every contract path is documented with its methods', () => {
  assert.ok(doc.paths['/api/tools/ping'].post);
  assert.ok(doc.paths['/api/tools/dns'].post);
  assert.ok(doc.paths['/api/tools/traceroute'].post);
  assert.ok(doc.paths['/api/tools/mtr'].post);
  assert.ok(doc.paths['/health'].get);
  assert.ok(doc.paths['/openapi.json'].get);
});

test('the description and the tools tag name every tool, and CORS preflights are described, not listed as operations', () => {
  for (const text of [doc.info.description.split('\n')[0], doc.tags.find((t: any) => t.name === 'tools').description]) {
    assert.match(text, /ping, (multi-resolver )?DNS, traceroute and mtr/);
  }
  assert.match(doc.info.description, /`OPTIONS` on a tool path answers a browser's preflight/);
  for (const item of Object.values<any>(doc.paths)) assert.is(item.options, undefined);
});

test('request schemas are the very schemas ajv compiles, re-addressed', () => {
  const compiled = (name: string) => TOOLS.find((t) => t.name === name)!.requestSchema(['r1', 'r2']);
  const { $id: _p, ...ping } = compiled('ping');
  assert.equal(doc.components.schemas.PingRequest, JSON.parse(JSON.stringify(ping)));
  const { $id: _d, ...dns } = compiled('dns');
  assert.equal(doc.components.schemas.DnsRequest, JSON.parse(JSON.stringify(dns)));
});

test('every tool request takes locations, the tool\'s own fields unchanged', () => {
  const { $id: _p, ...ping } = pingRequestSchema;
  const { locations, ...own } = doc.components.schemas.PingRequest.properties;
  assert.equal(own, JSON.parse(JSON.stringify(ping.properties)));
  assert.equal(locations.oneOf.length, 3);
  const { $id: _d, ...dns } = dnsRequestSchema(['r1', 'r2']);
  assert.equal(Object.keys(doc.components.schemas.DnsRequest.properties), [...Object.keys(dns.properties), 'locations']);
});

test('configured resolver ids are listed in the dns request schema', () => {
  assert.equal(doc.components.schemas.DnsRequest.properties.resolvers.items.enum, ['r1', 'r2']);
});

test('every problem code a tool can answer is documented on its path', () => {
  const text = (path: string) => JSON.stringify(doc.paths[path].post.responses);
  for (const code of Object.keys(PROBLEMS)) {
    if (code === 'not-found') continue;
    const onPing = text('/api/tools/ping').includes(`\`${code}\``);
    const onDns = text('/api/tools/dns').includes(`\`${code}\``);
    assert.ok(onPing || onDns, code);
  }
  assert.ok(text('/api/tools/ping').includes('`target-forbidden`'));
  assert.ok(text('/api/tools/dns').includes('`upstream-timeout`'));
});

test('every $ref resolves inside the document', () => {
  const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
  assert.ok(refs.length > 0);
  for (const r of refs) {
    const name = r.slice('"$ref":"#/components/schemas/'.length, -1);
    assert.ok(doc.components.schemas[name], r);
  }
});

test('component schemas compile as JSON Schema 2020-12', () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema as object, `#/components/schemas/${name}`);
  const validate = ajv.compile({ $ref: '#/components/schemas/PingResult' });
  const sample = {
    host: 'example.test',
    address: '192.0.2.10',
    ipVersion: 4,
    reachable: true,
    packets: { sent: 1, received: 1, duplicates: 0, lossPercent: 0 },
    rtt: { minMs: 0.02, avgMs: 0.02, maxMs: 0.02, stddevMs: 0, jitterMs: 0 },
    replies: [{ seq: 0, status: 'reply', rttMs: 0.02, ttl: 64, bytes: 64 }],
    resolveMs: 0,
    durationMs: 1,
    startedAt: '2026-11-22T12:00:00.000Z',
  };
  assert.ok(validate(sample), JSON.stringify(validate.errors));
  assert.not.ok(validate({ ...sample, reachable: 'yes' }));
});

test('the optional bearer key is declared, with its 401, and /api/limits is documented', () => {
  assert.is(doc.components.securitySchemes.apiKey.type, 'http');
  assert.is(doc.components.securitySchemes.apiKey.scheme, 'bearer');
  for (const path of ['/api/tools/ping', '/api/tools/dns']) {
    assert.equal(doc.paths[path].post.security, [{}, { apiKey: [] }]);
    assert.match(doc.paths[path].post.responses['401'].description, '`invalid-api-key`');
  }
  const limits = doc.paths['/api/limits'].get;
  assert.equal(limits.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/Limits' });
  assert.equal(doc.components.schemas.Limits.required, ['plan', 'limit', 'windowSeconds', 'remaining', 'resetSeconds', 'inFlightLimit']);
});

test('every problem code has a description, and each response gives its codes theirs', () => {
  assert.equal(Object.keys(PROBLEM_DESCRIPTIONS).sort(), Object.keys(PROBLEMS).sort());
  for (const text of Object.values(PROBLEM_DESCRIPTIONS)) assert.ok(text.length > 20, text);
  const tooMany = doc.paths['/api/tools/dns'].post.responses['429'].description;
  assert.match(tooMany, `- \`rate-limited\`: ${PROBLEMS['rate-limited'].title}. ${PROBLEM_DESCRIPTIONS['rate-limited']}`);
  assert.match(tooMany, PROBLEM_DESCRIPTIONS['too-many-concurrent']);
  assert.match(doc.paths['/api/tools/ping'].post.responses['422'].description, PROBLEM_DESCRIPTIONS['target-forbidden']);
});

// Where a schema names fields, each has its own description ($refs are described where they point).
function undescribed(schema: any, at: string): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => undescribed(s, `${at}/${i}`));
  if (schema === null || typeof schema !== 'object') return [];
  const own = Object.entries(schema.properties ?? {})
    .filter(([, field]: [string, any]) => typeof field.description !== 'string' && field.$ref === undefined)
    .map(([name]) => `${at}/properties/${name}`);
  return [...own, ...Object.entries(schema).flatMap(([k, v]) => (k === 'examples' ? [] : undescribed(v, `${at}/${k}`)))];
}

test('every field of every schema in the document has a description', () => {
  assert.equal(undescribed(doc.components.schemas, '#/components/schemas'), []);
  assert.equal(undescribed(doc.paths, '#/paths'), []);
});

test('the description check sees a field without one', () => {
  assert.equal(undescribed({ X: { properties: { a: { type: 'string', description: 'A.' }, b: { type: 'integer' } } } }, '#'), ['#/X/properties/b']);
});

test('the examples in the schemas are valid against them', () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema as object, `#/components/schemas/${name}`);
  let seen = 0;
  for (const [name, schema] of Object.entries<any>(doc.components.schemas)) {
    const validate = ajv.getSchema(`#/components/schemas/${name}`)!;
    for (const example of schema.examples ?? []) {
      seen++;
      assert.ok(validate(example), `${name}: ${JSON.stringify(validate.errors)}`);
    }
  }
  assert.ok(['PingRequest', 'PingResult', 'DnsRequest', 'DnsResult', 'Problem'].every((n) => doc.components.schemas[n].examples?.length > 0));
  assert.ok(seen >= 5);
});

test("each problem response shows an example of each of its codes, as the server writes it", () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema as object, `#/components/schemas/${name}`);
  const validate = ajv.getSchema('#/components/schemas/Problem')!;
  const shown = new Set<string>();
  for (const path of Object.values<any>(doc.paths)) {
    for (const operation of Object.values<any>(path)) {
      for (const response of Object.values<any>(operation.responses)) {
        const examples = response.content?.['application/problem+json']?.examples ?? {};
        for (const [code, example] of Object.entries<any>(examples)) {
          assert.is(example.value.code, code);
          assert.is(example.value.type, `https://nettools.dev/problems/${code}`);
          assert.ok(validate(example.value), `${code}: ${JSON.stringify(validate.errors)}`);
          shown.add(code);
        }
      }
    }
  }
  assert.equal([...shown].sort(), Object.keys(PROBLEMS).sort());
});

test('refusals carry the rate-limit headers, and Retry-After says which problems come with it', () => {
  const responses = doc.paths['/api/tools/ping'].post.responses;
  for (const status of ['200', '400', '429', '503']) assert.ok(responses[status].headers['RateLimit-Policy'], status);
  assert.ok(responses['200'].headers['X-Request-Id'] && responses['429'].headers['X-Request-Id']);
  assert.not.ok(responses['200'].headers['Retry-After']);
  assert.match(responses['429'].headers['Retry-After'].description, /^With `rate-limited`, `target-rate-limited`: /);
  assert.equal(Object.keys(responses['401'].headers).filter((h) => !h.includes('RateLimit')), ['X-Request-Id', 'WWW-Authenticate']);
  assert.ok(doc.paths['/api/tools/dns'].post.responses['405'].headers['Allow']);
});

test.run();
