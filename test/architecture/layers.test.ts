import { dirname, join, normalize } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LAYERS } from './layers';
import { sourceFiles } from './source-files';


function layerOf(path: string): number {
  const found = LAYERS.findIndex((places) => places.some((p) => path === p || path.startsWith(`${p}/`)));
  return found;
}

const IMPORT = /(?:from\s+|import\s*\(\s*|require\(\s*)'(\.{1,2}\/[^']+)'/g;

function importsOf(path: string, text: string): string[] {
  const targets: string[] = [];
  for (const m of text.matchAll(IMPORT)) targets.push(normalize(join(dirname(path), m[1] as string)));
  return targets;
}

const files = sourceFiles();

test('every file under src/ belongs to a layer', () => {
  const unplaced = files.map((f) => f.path).filter((p) => layerOf(p) === -1);
  assert.equal(unplaced, []);
});

test('no import runs from a lower layer up to a higher one', () => {
  const upward: string[] = [];
  for (const { path, text } of files) {
    for (const target of importsOf(path, text)) {
      if (!target.startsWith('src/')) continue;
      const withExt = layerOf(target) !== -1 ? target : `${target}.ts`;
      if (layerOf(withExt) < layerOf(path)) upward.push(`${path} -> ${target}`);
    }
  }
  assert.equal(upward, []);
});

test('the layer check sees an upward import when there is one', () => {
  // src/util is the lowest layer; an import of the HTTP layer from there must be caught.
  const imports = importsOf('src/util/x.ts', "import { a } from '../http/server';");
  assert.equal(imports, ['src/http/server']);
  assert.ok(layerOf('src/http/server.ts') < layerOf('src/util/x.ts'));
});

test.run();
