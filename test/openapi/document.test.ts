import Ajv2020 from 'ajv/dist/2020';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROBLEMS } from '../../src/http/problems';
import { buildOpenApi } from '../../src/openapi/document';
import { dnsRequestSchema } from '../../src/schemas/dns';
import { pingRequestSchema } from '../../src/schemas/ping';

const doc = buildOpenApi(['r1', 'r2'], '1.2.3') as any;

test('document is OpenAPI 3.1 with the package version', () => {
  assert.is(doc.openapi, '3.1.0');
  assert.is(doc.info.version, '1.2.3');
});

test('every contract path is documented with its methods', () => {
  assert.ok(doc.paths['/api/tools/ping'].post && doc.paths['/api/tools/ping'].options);
  assert.ok(doc.paths['/api/tools/dns'].post && doc.paths['/api/tools/dns'].options);
  assert.ok(doc.paths['/health'].get);
  assert.ok(doc.paths['/openapi.json'].get);
});

test('request schemas are the very schemas ajv compiles, re-addressed', () => {
  const { $id: _p, ...ping } = pingRequestSchema;
  assert.equal(doc.components.schemas.PingRequest, JSON.parse(JSON.stringify(ping)));
  const { $id: _d, ...dns } = dnsRequestSchema(['r1', 'r2']);
  assert.equal(doc.components.schemas.DnsRequest, JSON.parse(JSON.stringify(dns)));
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

test.run();
