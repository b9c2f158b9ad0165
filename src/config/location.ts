import { isIP } from 'node:net';
import { fail, ok, type Result } from '../util/result';

// A location's name travels in URLs, logs and JSON keys, and an operator types it: short, lowercase,
// nothing to escape anywhere.
export const LOCATION_NAME = /^[a-z0-9-]{1,32}$/;
// The same rule as a JSON schema: hellos, GET /api/locations and every tool's `locations` field.
export const LOCATION_NAME_SCHEMA = { type: 'string', pattern: '^[a-z0-9-]{1,32}$' } as const;
export const LOCATION_NAME_RULE = 'a location name is 1-32 of a-z, 0-9 and "-"';

const LABEL_KEY = /^[a-z0-9_-]{1,32}$/;
// Printable ASCII without the list's own separators: a label is shown as is by every client.
const LABEL_VALUE = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{1,64}$/;
export const MAX_LABELS = 16;

// `country=DE,city=Frankfurt`: the labels an agent announces about itself (and the hub about "here").
export function parseLocationLabels(text: string): Result<Record<string, string>, 'bad-labels'> {
  const labels: Record<string, string> = {};
  if (text === '') return ok(labels);
  const pairs = text.split(',');
  if (pairs.length > MAX_LABELS) return fail('bad-labels', `at most ${MAX_LABELS} labels`);
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1).trim();
    if (!LABEL_KEY.test(key.trim())) return fail('bad-labels', `label name "${key}" is not 1-32 of a-z, 0-9, "_" and "-"`);
    if (!LABEL_VALUE.test(value)) return fail('bad-labels', `label ${key.trim()} needs a value of 1-64 printable characters, without "," or "="`);
    if (Object.hasOwn(labels, key.trim())) return fail('bad-labels', `label ${key.trim()} appears twice`);
    labels[key.trim()] = value;
  }
  return ok(labels);
}

// wss:// anywhere; ws:// only to a loopback address literal, since an agent's key crosses in the clear.
export function parseHubUrl(text: string): Result<URL, 'bad-hub-url'> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail('bad-hub-url', 'expected wss://host/api/agents/connect');
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '') return fail('bad-hub-url', 'expected wss://host/api/agents/connect, without user, password or fragment');
  if (url.protocol === 'wss:') return ok(url);
  if (url.protocol !== 'ws:') return fail('bad-hub-url', 'expected wss:// (or ws:// to a loopback address)');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const loopback = (isIP(host) === 4 && host.startsWith('127.')) || (isIP(host) === 6 && host === '::1');
  return loopback ? ok(url) : fail('bad-hub-url', 'ws:// only to a loopback address literal (127.0.0.0/8 or [::1]); use wss:// otherwise');
}
