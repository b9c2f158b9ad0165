// The engine's one timer keeps Node's loop alive exactly while a ping has something due: an engine with
// nothing to do lets its process exit, one with a ping in flight holds it until the result. Each case is
// a child process that never closes its engine (test/support/pinger-exit-child.ts).
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const CHILD = path.resolve(__dirname, '..', 'support', 'pinger-exit-child.js');

// The bound only ends a child that would hang; it is far below the 60 s timeout and interval the
// `answered` and `cancelled` children leave behind, so a timer left armed for them is caught.
function run(mode: string): { lines: unknown[]; status: number | null; signal: string | null; stderr: string } {
  const child = spawnSync(process.execPath, [CHILD, mode], { encoding: 'utf8', timeout: 30_000 });
  const lines = child.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
  return { lines, status: child.status, signal: child.signal, stderr: child.stderr };
}

test('a process with an engine and no pings exits on its own', () => {
  const r = run('idle');
  assert.is(r.signal, null, 'killed at the bound: the idle engine kept the process alive');
  assert.is(r.status, 0, r.stderr);
  assert.equal(r.lines, ['opened']);
});

test('a process with a ping in flight waits for its result, then exits', () => {
  const r = run('in-flight');
  assert.is(r.signal, null, r.stderr);
  assert.is(r.status, 0, r.stderr);
  assert.equal(r.lines, [['reply', 'reply', 'reply']]);
});

test('a process whose ping was answered exits without waiting for the echo\'s timeout', () => {
  const r = run('answered');
  assert.is(r.signal, null, 'killed at the bound: the answered echo\'s deadline kept the process alive');
  assert.is(r.status, 0, r.stderr);
  assert.equal(r.lines, [['reply']]);
});

test('a process whose only ping was cancelled exits without waiting for its next echo', () => {
  const r = run('cancelled');
  assert.is(r.signal, null, 'killed at the bound: the cancelled ping\'s wake-up kept the process alive');
  assert.is(r.status, 0, r.stderr);
  assert.equal(r.lines, ['cancelled']);
});

test.run();
