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

// How one kind of key (API keys, agent keys) reads and writes its lines; the file around them is the same.
export interface RecordCodec<R extends { id: string; sha256: string }> {
  parse(line: string): Result<R, string>;
  format(record: R): string;
}

const API_KEYS: RecordCodec<KeyRecord> = { parse: parseKeyRecord, format: formatKeyRecord };

function unreadable(path: string, err: unknown): { ok: false; code: 'keys-file-unreadable'; message: string } {
  return fail('keys-file-unreadable', `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
}

// Owner and mode are read from the open file, so the file judged is the file read.
export function readKeyFile(path: string): Result<KeyRecord[], KeyFileError> {
  return readRecordFile(path, API_KEYS);
}

export function readRecordFile<R extends { id: string; sha256: string }>(path: string, codec: RecordCodec<R>): Result<R[], KeyFileError> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    return unreadable(path, err);
  }
  try {
    const distrusted = distrustReason(path, fstatSync(fd));
    if (distrusted !== null) return fail('keys-file-untrusted', distrusted);
    return parseRecords(readFileSync(fd, 'utf8'), path, codec);
  } catch (err) {
    return unreadable(path, err);
  } finally {
    closeSync(fd);
  }
}

export function parseKeyFile(text: string, path: string): Result<KeyRecord[], KeyFileError> {
  return parseRecords(text, path, API_KEYS);
}

function parseRecords<R extends { id: string; sha256: string }>(text: string, path: string, codec: RecordCodec<R>): Result<R[], KeyFileError> {
  const records: R[] = [];
  const ids = new Set<string>();
  const hashes = new Set<string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === '') continue;
    const parsed = codec.parse(line);
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
  writeRecordFile(path, records, API_KEYS);
}

function writeRecordFile<R extends { id: string; sha256: string }>(path: string, records: readonly R[], codec: RecordCodec<R>): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const text = records.map((r) => codec.format(r) + '\n').join('');
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
  return updateRecordFile(path, API_KEYS, change);
}

export function updateRecordFile<R extends { id: string; sha256: string }, E extends string>(
  path: string,
  codec: RecordCodec<R>,
  change: (records: R[]) => Result<R[], E>,
): Result<R[], E | KeyFileError> {
  const done = withLock(`${path}.lock`, LOCK_WAIT_MS, (): Result<R[], E | KeyFileError> => {
    const current = existsOrEmpty(path, codec);
    if (!current.ok) return current;
    const next = change(current.value);
    if (next.ok) writeRecordFile(path, next.value, codec);
    return next;
  });
  return done.ok ? done.value : done;
}

function existsOrEmpty<R extends { id: string; sha256: string }>(path: string, codec: RecordCodec<R>): Result<R[], KeyFileError> {
  try {
    statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ok([]);
  }
  return readRecordFile(path, codec);
}
