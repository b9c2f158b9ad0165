import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ts from 'typescript';
import { sourceFiles } from './source-files';

// A value is exported only by the file that defines it. TypeScript compiles a re-exported value
// (`export { x } from`, `export *`, `export { x }` of an import) to a getter defined over a property it
// had declared first, and V8 turns an exports object whose data property becomes an accessor into a
// dictionary: every read of any of its exports then is a dictionary lookup and a getter call. That cost
// a dns request some 5000 instructions. Types re-export freely (`export type`): they compile to nothing.
function valueReExports(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
  const imported = new Set<string>();
  const found: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node) && node.importClause !== undefined && !node.importClause.isTypeOnly) {
      const { name, namedBindings } = node.importClause;
      if (name !== undefined) imported.add(name.text);
      if (namedBindings !== undefined && ts.isNamespaceImport(namedBindings)) imported.add(namedBindings.name.text);
      if (namedBindings !== undefined && ts.isNamedImports(namedBindings)) {
        for (const e of namedBindings.elements) if (!e.isTypeOnly) imported.add(e.name.text);
      }
    }
    if (!ts.isExportDeclaration(node) || node.isTypeOnly) continue;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    const clause = node.exportClause;
    if (clause === undefined || ts.isNamespaceExport(clause)) {
      found.push(`${path}:${line} export *`);
      continue;
    }
    for (const e of clause.elements) {
      const local = (e.propertyName ?? e.name).text;
      if (!e.isTypeOnly && (node.moduleSpecifier !== undefined || imported.has(local))) found.push(`${path}:${line} ${local}`);
    }
  }
  return found;
}

test('no file under src/ re-exports a value', () => {
  assert.equal(sourceFiles().flatMap((f) => valueReExports(f.path, f.text)), []);
});

test('the re-export check sees each form of a value re-export, and lets types and own values pass', () => {
  const text = [
    "import { a, type T } from './a';",
    "import * as ns from './ns';",
    "export { b, type U } from './b';",
    "export * from './c';",
    "export type * from './d';",
    "export type { V } from './e';",
    'export { a, ns };',
    'const own = 1;',
    'export { own };',
  ].join('\n');
  assert.equal(valueReExports('x.ts', text), ['x.ts:3 b', 'x.ts:4 export *', 'x.ts:7 a', 'x.ts:7 ns']);
});

test.run();
