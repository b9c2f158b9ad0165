// A C++ case table of the native code (a `*_test.cc` printing "ok <case>" or "not ok <case>: why" per
// line), built with -Wall -Wextra -Werror, ASan and UBSan so that a stray read or index fails its case
// too, and run once; each test file then makes one uvu test per case.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../architecture/source-files';

export interface CaseTableOutcome {
  built: string; // the compiler's complaint, '' when it built
  status: number | null;
  signal: string | null;
  stderr: string;
  cases: Array<{ name: string; ok: boolean; why: string }>;
}

// `sources`: paths under native/, the table first.
export function buildAndRunCaseTable(sources: string[]): CaseTableOutcome {
  const dir = mkdtempSync(join(tmpdir(), 'nt-case-table-'));
  try {
    const bin = join(dir, 'case_table');
    const native = join(ROOT, 'native');
    const flags = ['-std=c++17', '-Wall', '-Wextra', '-Werror', '-g', '-fsanitize=address,undefined'];
    const build = spawnSync('g++', [...flags, '-fno-sanitize-recover=undefined', `-I${native}`, ...sources.map((f) => join(native, f)), '-o', bin], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (build.status !== 0) {
      return { built: `${build.error?.message ?? ''}${build.stderr}`, status: null, signal: null, stderr: '', cases: [] };
    }
    // Its own sanitizer options, so that a report lands on its stderr (and fails here) even inside the
    // sanitizer run, whose options send reports to files.
    const env = { ...process.env, ASAN_OPTIONS: 'detect_leaks=1', UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1' };
    const run = spawnSync(bin, [], { encoding: 'utf8', timeout: 120_000, env });
    const cases = run.stdout.split('\n').flatMap((line) => {
      const m = /^(ok|not ok) ([a-z0-9-]+)(?:: (.*))?$/.exec(line);
      return m ? [{ name: m[2]!, ok: m[1] === 'ok', why: m[3] ?? '' }] : [];
    });
    return { built: '', status: run.status, signal: run.signal, stderr: run.stderr, cases };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The table's uvu tests: it builds, it runs to `lastCase` (a table cut short by a crash between cases is
// seen too) with at least `atLeast` cases and no sanitizer report, and one test per case.
export function caseTableTests(outcome: CaseTableOutcome, lastCase: string, atLeast = 1): void {
  test('the case table builds with -Wall -Wextra -Werror and the sanitizers', () => {
    assert.is(outcome.built, '');
  });

  test('the case table runs to its end with no sanitizer report and every case passing', () => {
    assert.is(outcome.signal, null, outcome.stderr);
    assert.is(outcome.status, 0, outcome.stderr);
    assert.is(outcome.stderr, '');
    assert.ok(outcome.cases.length >= atLeast, `only ${outcome.cases.length} cases reported`);
    assert.is(outcome.cases.at(-1)?.name, lastCase);
  });

  for (const c of outcome.cases) {
    test(c.name.replaceAll('-', ' '), () => {
      assert.ok(c.ok, c.why);
    });
  }
}
