import { closeSync, fstatSync, fsyncSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { fail, ok, type Result } from '../util/result';
import { distrustReason } from './file-trust';
import { formatKeyRecord, parseKeyRecord, type KeyRecord } from './key-record';
import { withLock } from './lock-file';

// The keys file: one JSON record a line, mode 0600, written whole to a temporary file and renamed over
// the old one, so a reader (or a crash) never sees half a file. Writers take a lock file first
// (lock-file.ts), so two CLIs at once never lose a key.

export type KeyFileError = 'keys-file-unreadable' | 'keys-file-untrusted' | 'keys-file-malformed' | 'keys-file-locked';

function unreadable(path: string, err: unknown): { ok: false; code: 'keys-file-unreadable'; message: string } {
  return fail('keys-file-unreadable', `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
}

// Owner and mode are read from the open file, so the file judged is the file read.
export function readKeyFile(path: string): Result<KeyRecord[], KeyFileError> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    return unreadable(path, err);
  }
  try {
    const distrusted = distrustReason(path, fstatSync(fd));
    if (distrusted !== null) return fail('keys-file-untrusted', distrusted);
    return parseKeyFile(readFileSync(fd, 'utf8'), path);
  } catch (err) {
    return unreadable(path, err);
  } finally {
    closeSync(fd);
  }
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

// Runs `change` on the current records under the lock and writes what it returns; a missing file is
// an empty one. Nothing is written when `change` fails.
export function updateKeyFile<E extends string>(path: string, change: (records: KeyRecord[]) => Result<KeyRecord[], E>): Result<KeyRecord[], E | KeyFileError> {
  const done = withLock(`${path}.lock`, LOCK_WAIT_MS, (): Result<KeyRecord[], E | KeyFileError> => {
    const current = existsOrEmpty(path);
    if (!current.ok) return current;
    const next = change(current.value);
    if (next.ok) writeKeyFile(path, next.value);
    return next;
  });
  return done.ok ? done.value : done;
}

function existsOrEmpty(path: string): Result<KeyRecord[], KeyFileError> {
  try {
    statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ok([]);
  }
  return readKeyFile(path);
}
