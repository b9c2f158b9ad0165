import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey, type NewKey } from '../../src/keys/api-key';
import { writeKeyFile } from '../../src/keys/key-file';
import type { KeyRecord } from '../../src/keys/key-record';
import { KeyRing } from '../../src/keys/key-ring';
import { parsePlans } from '../../src/ratelimit/plans';

const plans = (() => {
  const parsed = parsePlans('pro=600/60s:16');
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
})();

function record(made: NewKey, change: Partial<KeyRecord> = {}): KeyRecord {
  return { id: made.id, sha256: made.sha256, plan: 'pro', label: '', created: '2026-01-01T00:00:00.000Z', expires: null, revoked: null, ...change };
}

const dirs: string[] = [];

test.after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function ringOf(records: KeyRecord[]): { ring: KeyRing; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'nettools-ring-'));
  dirs.push(dir);
  const path = join(dir, 'keys');
  writeKeyFile(path, records);
  const opened = KeyRing.open(path, plans);
  if (!opened.ok) throw new Error(opened.message);
  return { ring: opened.value, path };
}

test('a held key is valid under its plan, with its bucket key', () => {
  const made = generateKey();
  const { ring } = ringOf([record(made)]);
  const found = ring.lookup(made.key);
  assert.is(found.status, 'valid');
  if (found.status !== 'valid') return;
  assert.is(found.plan.name, 'pro');
  assert.is(found.bucketKey, `key:${made.id}`);
});

test('a line is recalled only after a lookup of a held key that came in it', () => {
  const held = generateKey();
  const other = generateKey();
  const { ring } = ringOf([record(held)]);
  assert.is(ring.recall(`Bearer ${held.key}`), undefined);
  ring.lookup(other.key, Date.now(), `Bearer ${other.key}`);
  assert.is(ring.recall(`Bearer ${other.key}`), undefined);
  const looked = ring.lookup(held.key, Date.now(), `Bearer ${held.key}`);
  assert.equal(ring.recall(`Bearer ${held.key}`), looked);
});

test('a recalled line still expires by the clock', () => {
  const made = generateKey();
  const { ring } = ringOf([record(made, { expires: '2030-01-01T00:00:00.000Z' })]);
  const line = `Bearer ${made.key}`;
  ring.lookup(made.key, Date.parse('2029-12-31T23:59:59.000Z'), line);
  assert.is(ring.recall(line, Date.parse('2029-12-31T23:59:59.999Z'))?.status, 'valid');
  assert.equal(ring.recall(line, Date.parse('2030-01-01T00:00:00.000Z')), { status: 'expired', id: made.id });
});

test('a reload forgets recalled lines, so a key revoked in the file is refused at once', () => {
  const made = generateKey();
  const { ring, path } = ringOf([record(made)]);
  const line = `Bearer ${made.key}`;
  ring.lookup(made.key, Date.now(), line);
  writeKeyFile(path, [record(made, { revoked: '2026-02-01T00:00:00.000Z' })]);
  assert.ok(ring.reload().ok);
  assert.is(ring.recall(line), undefined);
  assert.equal(ring.lookup(made.key, Date.now(), line), { status: 'revoked', id: made.id });
  assert.equal(ring.recall(line), { status: 'revoked', id: made.id });
});

test('a key dropped from the file is unknown after a reload', () => {
  const made = generateKey();
  const { ring, path } = ringOf([record(made)]);
  ring.lookup(made.key, Date.now(), `Bearer ${made.key}`);
  writeKeyFile(path, []);
  assert.ok(ring.reload().ok);
  assert.is(ring.recall(`Bearer ${made.key}`), undefined);
  assert.equal(ring.lookup(made.key), { status: 'unknown' });
});

test.run();
