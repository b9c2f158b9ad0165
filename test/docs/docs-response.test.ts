import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DOCS_CSP, loadDocsAssets, type DocsAsset } from '../../src/docs/docs-assets';
import { docsResponse, noneMatch } from '../../src/docs/docs-response';

const asset: DocsAsset = { contentType: 'text/css; charset=utf-8', body: 'a{}', etag: '"abc"' };
const header = (name: string, headers: ReadonlyArray<readonly [string, string]>) => headers.find(([n]) => n === name)?.[1];

test('without If-None-Match the file is sent whole with its ETag and the CSP', () => {
  const answer = docsResponse(asset, '');
  assert.is(answer.status, 200);
  assert.is(answer.body, 'a{}');
  assert.is(answer.contentType, 'text/css; charset=utf-8');
  assert.is(header('ETag', answer.headers), '"abc"');
  assert.is(header('Content-Security-Policy', answer.headers), DOCS_CSP);
  assert.is(header('Cache-Control', answer.headers), 'no-cache');
});

test('a matching If-None-Match is 304 with no body, and keeps the ETag', () => {
  const answer = docsResponse(asset, '"abc"');
  assert.is(answer.status, 304);
  assert.is(answer.body, null);
  assert.is(answer.contentType, null);
  assert.is(header('ETag', answer.headers), '"abc"');
});

test('If-None-Match is a list compared weakly, and * matches any file', () => {
  assert.not.ok(noneMatch('"x", "abc"', '"abc"'));
  assert.not.ok(noneMatch('W/"abc"', '"abc"'));
  assert.not.ok(noneMatch('*', '"abc"'));
  assert.ok(noneMatch('"x", "y"', '"abc"'));
  assert.ok(noneMatch('"ab"', '"abc"'));
});

test('the CSP allows nothing inline and nothing from another origin', () => {
  assert.not.match(DOCS_CSP, 'unsafe-inline');
  assert.not.match(DOCS_CSP, 'unsafe-eval');
  assert.not.match(DOCS_CSP, /https?:/);
  assert.match(DOCS_CSP, "default-src 'none'");
});

test("the page, its start-up script and Swagger UI's script and styles are served, each with its own ETag", () => {
  const assets = loadDocsAssets();
  assert.equal([...assets.keys()].sort(), ['/docs', '/docs/start.js', '/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css']);
  const etags = new Set([...assets.values()].map((a) => a.etag));
  assert.is(etags.size, assets.size);
  for (const a of assets.values()) assert.ok(a.body.length > 0 && a.contentType.includes('charset=utf-8'));
});

test.run();
