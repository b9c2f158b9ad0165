import { closeSync, fsyncSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { fail, ok, type Result } from '../util/result';
import { formatKeyRecord, parseKeyRecord, type KeyRecord } from './key-record';

// The keys file: one JSON record a line, mode 0600, written whole to a temporary file and renamed over
// the old one, so a reader (or a crash) never sees half a file. Writers take a lock file first, so two
// CLIs at once never lose a key.

export type KeyFileError = 'keys-file-unreadable' | 'keys-file-malformed' | 'keys-file-locked';

export function readKeyFile(path: string): Result<KeyRecord[], KeyFileError> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return fail('keys-file-unreadable', `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseKeyFile(text, path);
}

export function parseKeyFile(text: string, path: string): Result<KeyRecord[], KeyFileError> {
  const records: KeyRecord[] = [];
  const ids = new Set<string>();
  const hashes = new Set<string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === '') continue;
    const parsed = parseKeyRecord(line);
    if (!parsed.ok) return fail('keys-file-malformed', `${path} line ${i + 1}: ${parsed.message}`);
    const { id, sha256 } = parsed.value;
    if (ids.has(id) || hashes.has(sha256)) return fail('keys-file-malformed', `${path} line ${i + 1}: key ${id} appears twice`);
    ids.add(id);
    hashes.add(sha256);
    records.push(parsed.value);
  }
  return ok(records);
}

export function writeKeyFile(path: string, records: readonly KeyRecord[]): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const text = records.map((r) => formatKeyRecord(r) + '\n').join('');
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (err) {
    unlinkSync(temp);
    throw err;
  }
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

const LOCK_WAIT_MS = 5_000;
const LOCK_STALE_MS = 30_000;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

// Runs `change` on the current records under the lock and writes what it returns; a missing file is
// an empty one. Nothing is written when `change` fails.
export function updateKeyFile<E extends string>(path: string, change: (records: KeyRecord[]) => Result<KeyRecord[], E>): Result<KeyRecord[], E | KeyFileError> {
  const lock = `${path}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  let fd: number | null = null;
  while (fd === null) {
    try {
      fd = openSync(lock, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return fail('keys-file-unreadable', `cannot lock ${path}: ${(err as Error).message}`);
      // A writer that died holding the lock leaves it behind; one this old is nobody's.
      if (lockAge(lock) > LOCK_STALE_MS) unlinkQuietly(lock);
      else if (Date.now() > deadline) return fail('keys-file-locked', `${lock} is held by another writer; try again`);
      else sleep(10 + Math.random() * 20);
    }
  }
  try {
    const current = existsOrEmpty(path);
    if (!current.ok) return current;
    const next = change(current.value);
    if (next.ok) writeKeyFile(path, next.value);
    return next;
  } finally {
    closeSync(fd);
    unlinkQuietly(lock);
  }
}

function existsOrEmpty(path: string): Result<KeyRecord[], KeyFileError> {
  try {
    statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ok([]);
  }
  return readKeyFile(path);
}

function lockAge(lock: string): number {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return 0;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone: another writer cleaned it up
  }
}
