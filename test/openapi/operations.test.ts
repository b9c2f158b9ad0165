import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildOpenApi } from '../../src/openapi/document';
import { TOOLS } from '../../src/tools/registry';

const doc = buildOpenApi(TOOLS, ['r1', 'r2'], '1.2.3') as any;
const METHODS = ['get', 'post', 'options', 'put', 'delete', 'patch', 'head'];
const operations = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
  Object.entries<any>(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })),
);

test('every operation has an operationId of its own', () => {
  const ids = operations.map(({ op }) => op.operationId);
  assert.ok(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)), ids.join());
  assert.is(new Set(ids).size, ids.length);
  assert.is(doc.paths['/api/tools/ping'].post.operationId, 'ping');
  assert.is(doc.paths['/api/tools/dns'].post.operationId, 'dns');
  assert.is(doc.paths['/api/limits'].get.operationId, 'limits');
});

test('every operation has exactly one tag, one of tools, account and operations', () => {
  assert.equal(doc.tags.map((t: any) => t.name), ['tools', 'account', 'operations']);
  for (const { at, op } of operations) assert.ok(op.tags?.length === 1 && ['tools', 'account', 'operations'].includes(op.tags[0]), at);
  assert.equal(doc.paths['/api/tools/ping'].post.tags, ['tools']);
  assert.equal(doc.paths['/api/limits'].get.tags, ['account']);
  assert.equal(doc.paths['/health'].get.tags, ['operations']);
});

test('open operations say security [] and the budgeted ones take an optional key', () => {
  const open = operations.filter(({ op }) => op.security.length === 0).map(({ at }) => at);
  assert.equal(open.sort(), ['GET /', 'GET /api/locations', 'GET /docs', 'GET /health', 'GET /metrics', 'GET /openapi.json']);
  for (const at of ['POST /api/tools/ping', 'POST /api/tools/dns', 'GET /api/limits', 'GET /probe']) {
    assert.equal(operations.find((o) => o.at === at)?.op.security, [{}, { apiKey: [] }], at);
  }
});

test('the servers default is relative and the license is declared', () => {
  assert.equal(doc.servers.map((s: any) => s.url), ['/']);
  assert.equal(doc.info.license, { name: 'MIT', identifier: 'MIT' });
});

test('only operations that answer no 4xx of their own list none', () => {
  const without = operations.filter(({ op }) => !Object.keys(op.responses).some((s) => s.startsWith('4'))).map(({ at }) => at);
  assert.equal(without.sort(), ['GET /', 'GET /api/locations', 'GET /docs', 'GET /health', 'GET /openapi.json']);
  assert.ok(doc.paths['/api/limits'].get.responses['401'] && doc.paths['/api/limits'].get.responses['429']);
  assert.ok(doc.paths['/metrics'].get.responses['404']);
});

// Unused components are the linter's to find (lint.test.ts); these are the only kinds there are.
test('components hold schemas and the key scheme only', () => {
  assert.equal(Object.keys(doc.components).sort(), ['schemas', 'securitySchemes']);
});

test.run();
