import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../architecture/source-files';

// npm test ends with test/run-summary.sh's closing line; .ci/run counts each of its steps with the same
// script. These run it around real uvu (and c8) runs of fixture files, the way npm test runs the suite.
const SUMMARY = path.join(ROOT, 'test', 'run-summary.sh');
const UVU_BIN = path.join(ROOT, 'node_modules', 'uvu', 'bin.js');
const C8_BIN = path.join(ROOT, 'node_modules', 'c8', 'bin', 'c8.js');
const GUARD = path.resolve(__dirname, '..', 'support', 'before-hook-failures.js');
const FIXTURES = path.join(__dirname, 'fixtures');

const uvu = (pattern: string): string[] => [process.execPath, UVU_BIN, FIXTURES, pattern, '-r', GUARD];

function summarized(command: string[], cwd = ROOT) {
  const run = spawnSync('bash', [SUMMARY, ...command], { cwd, encoding: 'utf8', timeout: 120_000 });
  const lines = run.stdout.trimEnd().split('\n');
  return { status: run.status, lines, last: lines[lines.length - 1], out: run.stdout + run.stderr };
}

test('a run ends with "N passed, N failed, N skipped" alone on the last line, failures named above it', () => {
  const run = summarized(uvu('^(mixed-results|failing-before|passing-before)\\.js$'));
  assert.is(run.last, '2 passed, 2 failed, 1 skipped', run.out);
  assert.equal(run.lines.slice(-4, -1), [
    'failed:',
    'FAIL mixed fixture "fails on purpose"',
    'FAIL failing-before.js (its before hook threw; its tests did not run)',
  ]);
  assert.is(run.status, 1);
});

test('a run with nothing failed and nothing skipped ends with "N passed, 0 failed" and exits 0', () => {
  const run = summarized(uvu('^passing-before\\.js$'));
  assert.is(run.last, '1 passed, 0 failed', run.out);
  assert.not.ok(run.lines.includes('failed:'));
  assert.is(run.status, 0);
});

test('a coverage threshold not met counts as one failed, named after the coverage table', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nettools-summary-'));
  try {
    writeFileSync(path.join(dir, 'c8.json'), '{}'); // not the project's .c8rc.json: only the fixture is measured
    const c8 = [process.execPath, C8_BIN, '--config', path.join(dir, 'c8.json'), '--check-coverage', '--lines', '100', '--functions', '0', '--branches', '0', '--statements', '0'];
    const where = ['--reporter', 'text', '--temp-directory', path.join(dir, 'tmp'), '--reports-dir', path.join(dir, 'report'), '--allowExternal', '--include', '**/fixtures/partly-covered.js'];
    const run = summarized([...c8, ...where, ...uvu('^partly-covered\\.js$')], dir);
    assert.match(run.out, /% Lines/); // the coverage table came first
    assert.is(run.last, '1 passed, 1 failed', run.out);
    assert.match(run.lines[run.lines.length - 2] ?? '', /^FAIL coverage threshold: lines [\d.]+% < 100%$/);
    assert.is(run.status, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a command that fails before any test is counted counts as one failed and keeps a non-zero exit', () => {
  const run = summarized([process.execPath, path.join(FIXTURES, 'no-such-file.js')]);
  assert.is(run.last, '0 passed, 1 failed', run.out);
  assert.match(run.lines[run.lines.length - 2] ?? '', /^FAIL exited with status 1 and no failed test counted/);
  assert.is(run.status, 1);
});

test('a sanitizer run that failed counts one failed per FAIL line and names each report above the last line', () => {
  const printed = [
    'sanitizers: FAIL 1 report(s) from node processes, kept in build/sanitizer-reports:',
    'sanitizers: report asan.node.7: SUMMARY: AddressSanitizer: heap-use-after-free at #2 0x1 in f native/x.cc:9',
  ];
  const run = summarized(['bash', '-c', `${printed.map((l) => `echo '${l}'`).join('; ')}; exit 1`]);
  assert.is(run.last, '0 passed, 1 failed', run.out);
  assert.equal(run.lines.slice(-3, -1), [
    'FAIL sanitizers: 1 report(s) from node processes, kept in build/sanitizer-reports:',
    'FAIL sanitizers: report asan.node.7: SUMMARY: AddressSanitizer: heap-use-after-free at #2 0x1 in f native/x.cc:9',
  ]);
  assert.is(run.status, 1);
});

test('counting a log that already ends with a summary counts nothing twice (as .ci/run counts npm test)', () => {
  const inner = ['bash', SUMMARY, ...uvu('^(mixed-results|passing-before)\\.js$')];
  const run = summarized(inner);
  assert.is(run.last, '2 passed, 1 failed, 1 skipped', run.out);
  assert.equal(run.lines.filter((l) => l.startsWith('FAIL ')), ['FAIL mixed fixture "fails on purpose"', 'FAIL mixed fixture "fails on purpose"']);
});

test('npm test runs the suite through the summary', () => {
  const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  assert.match(scripts['test'] ?? '', /bash test\/run-summary\.sh c8 uvu dist\/test /);
});

test.run();
