import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadPageAssets } from '../../src/page/page-assets';

// Which files the live page is, read from a project root (a temp one here, so nothing real is touched).
function root(built: { script: boolean; client: boolean }): string {
  const dir = mkdtempSync(join(tmpdir(), 'nt-page-'));
  mkdirSync(join(dir, 'web'));
  writeFileSync(join(dir, 'web', 'index.html'), '<!doctype html>');
  writeFileSync(join(dir, 'web', 'live.css'), 'body{}');
  if (built.script) {
    mkdirSync(join(dir, 'dist', 'web'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'web', 'main.js'), "import './a.js';");
    writeFileSync(join(dir, 'dist', 'web', 'a.js'), "import './client/index.js';");
    writeFileSync(join(dir, 'dist', 'web', 'a.js.map'), '{}');
  }
  if (built.client) {
    const client = join(dir, 'clients', 'typescript', 'dist');
    mkdirSync(join(client, 'cli'), { recursive: true });
    writeFileSync(join(client, 'index.js'), "export * from './b.js';");
    writeFileSync(join(client, 'b.js'), 'export const b = 1;');
    writeFileSync(join(client, 'b.d.ts'), 'export declare const b = 1;');
    writeFileSync(join(client, 'cli', 'main.js'), "import 'node:process';");
  }
  return dir;
}

function withRoot(built: { script: boolean; client: boolean }, check: (dir: string) => void): void {
  const dir = root(built);
  try {
    check(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the page, its styles, every compiled module and the client library are served, each with its own ETag', () => {
  withRoot({ script: true, client: true }, (dir) => {
    const { files, missing } = loadPageAssets(dir);
    assert.is(missing, null);
    assert.equal([...files.keys()], ['/', '/page/live.css', '/page/a.js', '/page/main.js', '/page/client/b.js', '/page/client/index.js']);
    for (const path of ['/page/a.js', '/page/client/b.js']) assert.is(files.get(path)?.contentType, 'text/javascript; charset=utf-8', path);
    assert.is(new Set([...files.values()].map((f) => f.etag)).size, files.size);
  });
});

test('without the compiled script nothing is served and what is missing is named', () => {
  withRoot({ script: false, client: true }, (dir) => {
    const { files, missing } = loadPageAssets(dir);
    assert.is(files.size, 0);
    assert.match(String(missing), join(dir, 'dist', 'web', 'main.js'));
  });
});

test("without the client's build nothing is served either: the page could not run", () => {
  withRoot({ script: true, client: false }, (dir) => {
    const { files, missing } = loadPageAssets(dir);
    assert.is(files.size, 0);
    assert.match(String(missing), join(dir, 'clients', 'typescript', 'dist', 'index.js'));
  });
});

test.run();
