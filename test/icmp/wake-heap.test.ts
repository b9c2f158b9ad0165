// The ICMP engine's wake heap (native/icmp/icmp_wake_heap.cc), one uvu test per case of its C++ table
// (native/icmp/icmp_wake_heap_test.cc), built here with ASan and UBSan so that a stray index fails its case too.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../architecture/source-files';

interface Outcome {
  built: string;  // the compiler's complaint, '' when it built
  status: number | null;
  signal: string | null;
  stderr: string;
  cases: Array<{ name: string; ok: boolean; why: string }>;
}

function buildAndRun(): Outcome {
  const dir = mkdtempSync(join(tmpdir(), 'nt-wake-heap-'));
  try {
    const bin = join(dir, 'icmp_wake_heap_test');
    const native = join(ROOT, 'native');
    const sources = ['icmp_wake_heap_test.cc', 'icmp_wake_heap.cc'].map((f) => join(native, 'icmp', f));
    const flags = ['-std=c++17', '-Wall', '-Wextra', '-Werror', '-g', '-fsanitize=address,undefined'];
    const build = spawnSync('g++', [...flags, '-fno-sanitize-recover=undefined', `-I${native}`, ...sources, '-o', bin], {
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

const outcome = buildAndRun();

test('the case table builds with -Wall -Wextra -Werror and the sanitizers', () => {
  assert.is(outcome.built, '');
});

test('the case table runs to its end with no sanitizer report and every case passing', () => {
  assert.is(outcome.signal, null, outcome.stderr);
  assert.is(outcome.status, 0, outcome.stderr);
  assert.is(outcome.stderr, '');
  // A table cut short (a crash between cases) is seen here too.
  assert.is(outcome.cases.at(-1)?.name, 'random-operations-agree-with-a-sorted-reference');
});

for (const c of outcome.cases) {
  test(c.name.replaceAll('-', ' '), () => {
    assert.ok(c.ok, c.why);
  });
}

test.run();
