import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VERSION } from '../../clients/typescript/src/cli/version';

const CLIENT = resolve(__dirname, '../../../clients/typescript');
const pkg = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8'));
const root = JSON.parse(readFileSync(resolve(CLIENT, '../../package.json'), 'utf8'));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

test('the client package names its entry points and its command', () => {
  assert.is(pkg.name, '@nettools/client');
  assert.is(pkg.type, 'module');
  assert.is(pkg.main, './dist/index.js');
  assert.is(pkg.types, './dist/index.d.ts');
  assert.equal(pkg.exports['.'], { types: './dist/index.d.ts', default: './dist/index.js' });
  assert.is(pkg.bin.nettools, './dist/cli/main.js');
});

test('the CLI reports the package version', () => {
  assert.is(VERSION, pkg.version);
});

test('the client has no runtime dependency and imports nothing but its own files', () => {
  assert.is(pkg.dependencies, undefined);
  for (const file of sources(join(CLIENT, 'src'))) {
    const specifiers = [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)].map((m) => m[1]!);
    for (const s of specifiers) assert.ok(s.startsWith('./') || s.startsWith('../'), `${file} imports ${s}`);
  }
});

test('the repository keeps the server as its main and start, and the command comes from the client workspace', () => {
  assert.is(root.main, 'dist/src/main.js');
  assert.is(root.scripts.start, 'node dist/src/main.js');
  // A bin of the root's own would make npx install the whole repository into its cache to run it.
  assert.is(root.bin, undefined);
  assert.equal(root.workspaces, ['clients/typescript']);
  assert.ok(existsSync(resolve(CLIENT, '../../node_modules/.bin/nettools')), 'npm ci links the nettools command');
});

test.run();
