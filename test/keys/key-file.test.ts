import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey } from '../../src/keys/api-key';
import { readKeyFile, updateKeyFile, writeKeyFile } from '../../src/keys/key-file';
import type { KeyRecord } from '../../src/keys/key-record';
import { ok } from '../../src/util/result';

function record(over: Partial<KeyRecord> = {}): KeyRecord {
  const made = generateKey();
  return { id: made.id, sha256: made.sha256, plan: 'pro', label: '', created: new Date().toISOString(), expires: null, revoked: null, ...over };
}

// Runs `body` with a fresh directory and removes it afterwards, whatever happens.
function inTempDir(body: (dir: string, path: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'nt-keys-'));
  try {
    body(dir, join(dir, 'keys'));
  } finally {
    rmSync(dir, { recursive: true });
  }
}

test('the file is written whole with mode 0600 and no temporary file left behind', () => {
  inTempDir((dir, path) => {
  const records = [record(), record({ label: 'ci' })];
  writeKeyFile(path, records);
  assert.is(statSync(path).mode & 0o777, 0o600);
  assert.equal(readdirSync(dir), ['keys']);
  const read = readKeyFile(path);
  assert.ok(read.ok);
  if (read.ok) assert.equal(read.value, records);
  });
});

test('a line that is not a record is refused with its line number', () => {
  inTempDir((dir, path) => {
  writeKeyFile(path, [record()]);
  writeFileSync(path, readFileSync(path, 'utf8') + '{"id":"short"}\n');
  const read = readKeyFile(path);
  assert.not.ok(read.ok);
  if (!read.ok) assert.match(read.message, 'line 2: id must be 8 base64url characters');
  });
});

test('a key that appears twice is refused', () => {
  inTempDir((dir, path) => {
  const r = record();
  writeKeyFile(path, [r, { ...r, label: 'again' }]);
  const read = readKeyFile(path);
  assert.not.ok(read.ok);
  if (!read.ok) assert.match(read.message, 'appears twice');
  });
});

test('an update that fails writes nothing', () => {
  inTempDir((dir, path) => {
  writeKeyFile(path, [record()]);
  const before = readFileSync(path);
  const result = updateKeyFile(path, () => ({ ok: false as const, code: 'nope', message: 'refused' }));
  assert.not.ok(result.ok);
  assert.equal(readFileSync(path), before);
  assert.equal(readdirSync(dir), ['keys']);
  });
});

test('an update of a missing file starts from no keys, and leaves no lock behind', () => {
  inTempDir((dir, path) => {
  const r = record();
  assert.ok(updateKeyFile(path, (records) => ok([...records, r])).ok);
  assert.equal(readdirSync(dir), ['keys']);
  const read = readKeyFile(path);
  assert.ok(read.ok && read.value.length === 1);
  });
});

test.run();
