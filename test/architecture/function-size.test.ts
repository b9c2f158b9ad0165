import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ts from 'typescript';
import { sourceFiles } from './source-files';

// No function in src/ is longer than this many lines: a longer one is several steps that want names.
const MAX_LINES = 60;

function longFunctions(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > MAX_LINES) found.push(`${path}:${first + 1} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test(`no function in src/ is longer than ${MAX_LINES} lines`, () => {
  assert.equal(sourceFiles().flatMap((f) => longFunctions(f.path, f.text)), []);
});

test('the size check sees a long function', () => {
  const body = Array.from({ length: MAX_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
  assert.equal(longFunctions('x.ts', `function big() {\n${body}\n}\n`), [`x.ts:1 (${MAX_LINES + 2} lines)`]);
});

test.run();
