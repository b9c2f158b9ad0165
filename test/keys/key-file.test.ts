import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey } from '../../src/keys/api-key';
import { distrustReason } from '../../src/keys/file-trust';
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

test('a missing file, or a directory in its place, is refused as unreadable, naming it', () => {
  inTempDir((dir, path) => {
    assert.equal(readKeyFile(path), { ok: false, code: 'keys-file-unreadable', message: `cannot read ${path}: ENOENT` });
    assert.equal(readKeyFile(dir), { ok: false, code: 'keys-file-unreadable', message: `cannot read ${dir}: EISDIR` });
  });
});

const untrusted: Array<[string, (path: string) => void, string]> = [
  ['writable by its group', (path) => chmodSync(path, 0o620), 'is writable by its group (mode 0620); chmod go-w it'],
  ['writable by others', (path) => chmodSync(path, 0o602), 'is writable by others (mode 0602); chmod go-w it'],
  ['writable by both', (path) => chmodSync(path, 0o666), 'is writable by its group and others (mode 0666); chmod go-w it'],
  ['owned by another user', (path) => chownSync(path, 65534, 65534), `is owned by uid 65534, neither the user nettools runs as (uid ${process.geteuid?.()}) nor root`],
];
for (const [what, spoil, reason] of untrusted) {
  test(`a file ${what} is refused as untrusted, naming the file`, () => {
    inTempDir((dir, path) => {
      writeKeyFile(path, [record()]);
      spoil(path);
      assert.equal(readKeyFile(path), { ok: false, code: 'keys-file-untrusted', message: `${path} ${reason}` });
    });
  });
}

test('a file root owns is trusted by a reader running as another user, one that user owns is not trusted by another', () => {
  inTempDir((dir, path) => {
    writeKeyFile(path, [record()]);
    assert.is(distrustReason(path, statSync(path), 65534), null);
    chownSync(path, 65534, 65534);
    assert.is(distrustReason(path, statSync(path), 65534), null);
    assert.match(distrustReason(path, statSync(path), 1000) ?? '', 'is owned by uid 65534');
  });
});

// Characters a label may not hold, the class they belong to, and what the refusal calls them.
const forbidden: Array<[string, string]> = [
  ['\u0000', 'a control character'],
  ['\u001b', 'a control character'],
  ['\u001f', 'a control character'],
  ['\u007f', 'a control character'],
  ['\u0080', 'a control character'],
  ['\u009b', 'a control character'],
  ['\u009f', 'a control character'],
  ['\u202a', 'a bidirectional formatting character'],
  ['\u202e', 'a bidirectional formatting character'],
  ['\u2066', 'a bidirectional formatting character'],
  ['\u2069', 'a bidirectional formatting character'],
  ['\u200e', 'a bidirectional formatting character'],
  ['\u200f', 'a bidirectional formatting character'],
  ['\u061c', 'a bidirectional formatting character'],
];
for (const [char, kind] of forbidden) {
  const name = `U+${(char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
  test(`a label holding ${name} in the file is refused with its line number`, () => {
    inTempDir((dir, path) => {
      writeKeyFile(path, [record(), record({ label: `ci ${char}runner` })]);
      const read = readKeyFile(path);
      assert.equal(read, { ok: false, code: 'keys-file-malformed', message: `${path} line 2: label holds ${name}, ${kind}` });
    });
  });
}

test('a label of letters from any script, with spaces and punctuation, loads', () => {
  inTempDir((dir, path) => {
    const records = [record({ label: 'Zürich NAT \u00a0– 東京 ✓ עברית (ci)' })];
    writeKeyFile(path, records);
    assert.equal(readKeyFile(path), { ok: true, value: records });
  });
});

test.run();
