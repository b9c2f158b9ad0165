import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { generateKey, hashKey, readCredential } from '../../src/keys/api-key';

test('a new key is nt_ and 43 base64url characters, its id the 8 after the prefix, its hash SHA-256', () => {
  const made = generateKey();
  assert.match(made.key, /^nt_[A-Za-z0-9_-]{43}$/);
  assert.is(made.id, made.key.slice(3, 11));
  assert.is(made.sha256, createHash('sha256').update(made.key).digest('hex'));
  assert.is(hashKey(made.key), made.sha256);
});

test('keys do not repeat', () => {
  const keys = new Set(Array.from({ length: 1000 }, () => generateKey().key));
  assert.is(keys.size, 1000);
});

test('no Authorization header is no credential', () => {
  assert.equal(readCredential([]), { kind: 'none' });
});

test('a Bearer key is read, whatever the case of the scheme', () => {
  const { key } = generateKey();
  assert.equal(readCredential([`Bearer ${key}`]), { kind: 'key', key });
  assert.equal(readCredential([`bearer ${key}`]), { kind: 'key', key });
});

const malformed: Array<[string, string[]]> = [
  ['Bearer with nothing', ['Bearer']],
  ['Bearer and spaces', ['Bearer   ']],
  ['two Authorization headers', [`Bearer ${generateKey().key}`, `Bearer ${generateKey().key}`]],
  ['Basic credentials', ['Basic dXNlcjpwYXNz']],
  ['a 10 KiB key', [`Bearer nt_${'a'.repeat(10 * 1024)}`]],
  ['non-ASCII (as uWS hands Latin-1 bytes over)', [`Bearer nt_${'é'.repeat(43)}`]],
  ['a key one character short', [`Bearer ${generateKey().key.slice(0, -1)}`]],
  ['another prefix', [`Bearer sk_${'a'.repeat(43)}`]],
];
for (const [what, lines] of malformed) {
  test(`${what} is malformed, saying why`, () => {
    const credential = readCredential(lines);
    assert.is(credential.kind, 'malformed');
    if (credential.kind === 'malformed') assert.ok(credential.why.length > 0);
  });
}

test.run();
