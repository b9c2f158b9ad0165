import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

// npm test runs uvu with the before-hook guard preloaded; these run a fixture file the same way.
const UVU_BIN = path.resolve(__dirname, '..', '..', '..', 'node_modules', 'uvu', 'bin.js');
const GUARD = path.resolve(__dirname, '..', 'support', 'before-hook-failures.js');
const FIXTURES = path.join(__dirname, 'fixtures');

function runFixture(name: string) {
  const run = spawnSync(process.execPath, [UVU_BIN, FIXTURES, `^${name}\\.js$`, '-r', GUARD, '--color', 'false'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, out: run.stdout + run.stderr };
}

test('a before hook that throws fails the run and names the error', () => {
  const run = runFixture('failing-before');
  assert.is(run.status, 1);
  assert.match(run.out, /before hook failed in failing-before\.js/);
  assert.match(run.out, /fixture setup broke/);
  assert.match(run.out, /Total:\s+1/);
  assert.match(run.out, /Passed:\s+0/);
});

test('a before hook that works leaves the run passing', () => {
  const run = runFixture('passing-before');
  assert.is(run.status, 0, run.out);
  assert.match(run.out, /Passed:\s+1/);
});

test.run();
