import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadPageAssets } from '../../src/page/page-assets';

// Which files the live page is, read from a project root (a temp one here, so nothing real is touched).
function root(withScript: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'nt-page-'));
  mkdirSync(join(dir, 'web'));
  writeFileSync(join(dir, 'web', 'index.html'), '<!doctype html>');
  writeFileSync(join(dir, 'web', 'live.css'), 'body{}');
  if (withScript) {
    mkdirSync(join(dir, 'dist', 'web'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'web', 'main.js'), "import './a.js';");
    writeFileSync(join(dir, 'dist', 'web', 'a.js'), 'export {};');
    writeFileSync(join(dir, 'dist', 'web', 'a.js.map'), '{}');
  }
  return dir;
}

test('the page, its styles and every compiled module are served, each with its own ETag', () => {
  const dir = root(true);
  try {
    const { files, missing } = loadPageAssets(dir);
    assert.is(missing, null);
    assert.equal([...files.keys()], ['/', '/page/live.css', '/page/a.js', '/page/main.js']);
    assert.is(files.get('/page/a.js')?.contentType, 'text/javascript; charset=utf-8');
    assert.is(new Set([...files.values()].map((f) => f.etag)).size, files.size);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without the compiled script nothing is served and what is missing is named', () => {
  const dir = root(false);
  try {
    const { files, missing } = loadPageAssets(dir);
    assert.is(files.size, 0);
    assert.match(String(missing), join(dir, 'dist', 'web', 'main.js'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
