import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashKey } from '../../src/keys/api-key';
import { MAIN } from '../support/child-server';
import { TEST_ENV } from '../support/server';

const WRITERS = 6;
const TRIALS = 15;

// A real `keys create` process, parked right after it first looks at the lock file (its stat, which
// sees the lock is stale): there it says "ready" and blocks reading one byte from stdin. The test writes
// that byte to every writer once all six are parked, so every writer has seen the stale lock before any
// of them acts on it: the interleaving that writers started together meet now and then, every time.
// Nothing else in the process is changed.
const WRITER = `
const fs = require('node:fs');
const statSync = fs.statSync;
let parked = false;
fs.statSync = function (file, ...rest) {
  const stats = statSync.call(this, file, ...rest);
  if (!parked && String(file).endsWith('.lock')) {
    parked = true;
    process.stdout.write('ready\\n');
    fs.readSync(0, Buffer.alloc(1));
  }
  return stats;
};
process.argv = [process.argv[0], ${JSON.stringify(MAIN)}, ...process.argv.slice(1)];
require(process.argv[1]);
`;

interface Writer {
  ready: Promise<void>;
  go(): void;
  done: Promise<{ parked: boolean; code: number | null; key: string; stderr: string }>;
}

function writer(env: Record<string, string>): Writer {
  const child = spawn(process.execPath, ['-e', WRITER, 'keys', 'create', '--plan', 'pro'], {
    env: { ...process.env, ...TEST_ENV, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000); // bounded, whatever happens (a loaded machine starts six Node processes slowly)
  let stdout = '';
  let stderr = '';
  let isReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (isReady = resolve));
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    if (stdout.startsWith('ready\n')) isReady();
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ parked: boolean; code: number | null; key: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(killer);
      isReady();
      resolve({ parked: stdout.startsWith('ready\n'), code, key: stdout.replace(/^ready\n/, '').trim(), stderr });
    }),
  );
  child.stdin.on('error', () => {}); // a writer that never parked has already exited
  return { ready, go: () => child.stdin.end('g'), done };
}

// One trial: a lock left 60 s ago by a writer that died, and six CLIs adding a key at the same instant.
// Returns the keys printed with exit 0 that are not in the file afterwards.
async function trial(): Promise<{ parked: number; printed: number; lost: string[]; failures: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'nt-lock-'));
  try {
    const file = join(dir, 'keys');
    const lock = `${file}.lock`;
    writeFileSync(lock, '', { mode: 0o600 });
    const past = (Date.now() - 60_000) / 1000;
    utimesSync(lock, past, past);
    const env = { NETTOOLS_API_KEYS_FILE: file, NETTOOLS_PLANS: 'pro=600/60s' };
    const writers = Array.from({ length: WRITERS }, () => writer(env));
    await Promise.all(writers.map((w) => w.ready));
    for (const w of writers) w.go();
    const results = await Promise.all(writers.map((w) => w.done));
    const stored = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l).sha256 as string);
    const printed = results.filter((r) => r.code === 0).map((r) => r.key);
    return {
      parked: results.filter((r) => r.parked).length,
      printed: printed.length,
      lost: printed.filter((key) => !stored.includes(hashKey(key))),
      failures: results.filter((r) => r.code !== 0 || !r.parked).map((r) => `exit ${r.code}${r.parked ? '' : ' (never parked)'}: ${r.stderr.trim()}`),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('six CLIs taking over one stale lock at once: every key printed with exit 0 is in the file', async () => {
  const lost: string[] = [];
  const failures: string[] = [];
  for (let i = 1; i <= TRIALS; i++) {
    const outcome = await trial();
    // A writer that never parked never met the race: the test would prove nothing.
    assert.is(outcome.parked, WRITERS, `trial ${i}: only ${outcome.parked} writers parked at the lock: ${outcome.failures.join('; ')}`);
    assert.ok(outcome.printed > 0, `trial ${i}: no writer succeeded: ${outcome.failures.join('; ')}`);
    if (outcome.lost.length > 0) lost.push(`trial ${i}: ${outcome.lost.length} of ${outcome.printed} printed keys missing`);
    failures.push(...outcome.failures.map((f) => `trial ${i}: ${f}`));
  }
  assert.equal(lost, [], lost.join('\n'));
  assert.equal(failures, [], failures.join('\n'));
});

test.run();
