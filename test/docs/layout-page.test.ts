import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LAYERS } from '../architecture/layers';
import { ROOT } from '../architecture/source-files';

// docs/layout.md's table of layers is what the layer test enforces, place for place and in order.
function layersOnThePage(): string[][] {
  const page = readFileSync(join(ROOT, 'docs', 'layout.md'), 'utf8');
  const rows = page.split('\n').filter((line) => /^\| \d+ \|/.test(line));
  return rows.map((row) => [...(row.split('|')[2] as string).matchAll(/`([^`]+)`/g)].map((m) => (m[1] as string).replace(/\/$/, '')));
}

test('docs/layout.md lists the layers the layer test enforces, in order', () => {
  assert.equal(layersOnThePage(), LAYERS.map((places) => [...places]));
});

test.run();
