import { hash, randomBytes } from 'node:crypto';

// A key is "nt_" and the base64url text of 32 bytes from the kernel CSPRNG; its id is the first 8
// characters of that text. Only the id is ever shown or logged, only the SHA-256 ever stored.
export const KEY_PREFIX = 'nt_';
const KEY_FORMAT = /^nt_[A-Za-z0-9_-]{43}$/;
const ID_LENGTH = 8;

export interface NewKey {
  key: string;
  id: string;
  sha256: string; // hex
}

// One-shot: a third of createHash's cost, on the path of every keyed request. A key is ASCII, so its
// UTF-8 bytes are its Latin-1 bytes.
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function keyId(key: string): string {
  return key.slice(KEY_PREFIX.length, KEY_PREFIX.length + ID_LENGTH);
}

export function generateKey(): NewKey {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, id: keyId(key), sha256: hashKey(key) };
}

export type Credential = { kind: 'none' } | { kind: 'key'; key: string } | { kind: 'malformed'; why: string };

// What the Authorization header lines say. `values` are every Authorization line of the request, as
// uWS hands them over (bytes above 0x7F arrive as Latin-1 characters and fail the format).
export function readCredential(values: readonly string[]): Credential {
  if (values.length === 0) return { kind: 'none' };
  if (values.length > 1) return { kind: 'malformed', why: 'more than one Authorization header' };
  const value = values[0] as string;
  const space = value.indexOf(' ');
  const scheme = space < 0 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') return { kind: 'malformed', why: 'only Bearer keys are accepted' };
  const token = space < 0 ? '' : value.slice(space + 1).trim();
  if (token === '') return { kind: 'malformed', why: 'Bearer without a key' };
  if (!KEY_FORMAT.test(token)) return { kind: 'malformed', why: 'not a nettools key (nt_ and 43 base64url characters)' };
  return { kind: 'key', key: token };
}
