import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ts from 'typescript';
import { ROOT, sourceFiles } from './source-files';

// The live page reads the API through the typed client: its events carry the generated types, so no
// `any` is needed in web/, and it reads no response body by hand (the client's reader does that).
function findings(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const at = (node: ts.Node) => `${path}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) found.push(`${at(node)} any`);
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'getReader') found.push(`${at(node)} getReader`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('web/ has no any and no stream reader of its own', () => {
  const files = sourceFiles(join(ROOT, 'web'));
  assert.ok(files.some((f) => f.path.endsWith('main.ts')), 'web/ was read');
  assert.equal(files.flatMap((f) => findings(f.path, f.text)), []);
});

test('the check sees an any and a body read by hand', () => {
  assert.equal(findings('x.ts', 'let a: any;\nconst r = body.getReader();\n'), ['x.ts:1 any', 'x.ts:2 getReader']);
});

test.run();
