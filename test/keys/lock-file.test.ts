import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withLock } from '../../src/keys/lock-file';

// Runs `body` with a fresh directory and removes it afterwards, whatever happens.
function inTempDir(body: (dir: string, lock: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'nt-lock-'));
  try {
    body(dir, join(dir, 'keys.lock'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// A file as a writer that died a minute ago left it.
function leftBehind(path: string): void {
  writeFileSync(path, '', { mode: 0o600 });
  const past = (Date.now() - 60_000) / 1000;
  utimesSync(path, past, past);
}

// The marker by which a process claims the right to remove the lock file at `path`.
function markerOf(path: string): string {
  const { ino, mtimeNs } = statSync(path, { bigint: true });
  return `${path}.end-${ino}-${mtimeNs}`;
}

test('a lock left by a writer that died is taken over, and nothing of it is left afterwards', () => {
  inTempDir((dir, lock) => {
    leftBehind(lock);
    // While working: its own lock, and its own claim on removing it, which keeps takers off.
    const ran = withLock(lock, 100, () => [readdirSync(dir).sort(), ['keys.lock', markerOf(lock).slice(dir.length + 1)].sort()]);
    assert.ok(ran.ok);
    if (ran.ok) assert.equal(ran.value[0], ran.value[1]);
    assert.equal(readdirSync(dir), []);
  });
});

test('a fresh lock is never taken over: the writer waits, says it is held, and leaves it be', () => {
  inTempDir((dir, lock) => {
    writeFileSync(lock, 'held', { mode: 0o600 });
    const before = statSync(lock).ino;
    let ran = false;
    const result = withLock(lock, 100, () => (ran = true));
    assert.not.ok(result.ok);
    if (!result.ok) assert.equal([result.code, result.message], ['keys-file-locked', `${lock} is held by another writer; try again`]);
    assert.not.ok(ran);
    assert.is(statSync(lock).ino, before);
  });
});

test('a stale lock that another writer is already removing is left to that writer', () => {
  inTempDir((dir, lock) => {
    leftBehind(lock);
    writeFileSync(markerOf(lock), '', { mode: 0o600 }); // that writer's claim, made just now
    const result = withLock(lock, 100, () => true);
    assert.is(result.ok ? 'ran' : result.code, 'keys-file-locked');
    assert.equal(readdirSync(dir).sort(), ['keys.lock', markerOf(lock).slice(dir.length + 1)]);
  });
});

test('a claim left by a writer that died while removing a stale lock is cleared, and the lock taken over', () => {
  inTempDir((dir, lock) => {
    leftBehind(lock);
    leftBehind(markerOf(lock));
    assert.ok(withLock(lock, 1_000, () => true).ok);
    assert.equal(readdirSync(dir), []);
  });
});

test('the lock is removed when the work throws', () => {
  inTempDir((dir, lock) => {
    assert.throws(() => withLock(lock, 100, () => {
      throw new Error('disk full');
    }), /disk full/);
    assert.equal(readdirSync(dir), []);
  });
});

test('a lock that cannot be created is reported, not waited for', () => {
  inTempDir((dir) => {
    const result = withLock(join(dir, 'missing', 'keys.lock'), 5_000, () => true);
    assert.not.ok(result.ok);
    if (!result.ok) assert.equal([result.code, result.message], ['keys-file-unreadable', `cannot create ${join(dir, 'missing', 'keys.lock')}: ENOENT`]);
  });
});

test.run();
