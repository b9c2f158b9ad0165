import { fail, ok, type Result } from '../util/result';

// One line of the keys file: everything about a key but the key itself.
export interface KeyRecord {
  id: string;
  sha256: string; // hex of SHA-256 over the key's text
  plan: string;
  label: string;
  created: string; // ISO 8601
  expires: string | null; // ISO 8601: the key stops working at this instant
  revoked: string | null; // ISO 8601: when it was revoked
}

const ID = /^[A-Za-z0-9_-]{8}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const MAX_LABEL = 200;
// A label is shown in a terminal (`keys list`) and read by people: control characters (C0, DEL, C1) can
// move the cursor or rewrite what is shown, and bidirectional formatting characters reorder it, so a
// label could read as something it is not (the "Trojan Source" trick).
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const codePoint = (c: string) => `U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;

// Why `label` cannot be a key's label, or null when it can.
export function labelFault(label: string): string | null {
  if (label.length > MAX_LABEL) return `label must be text of at most ${MAX_LABEL} characters`;
  const control = CONTROL.exec(label);
  if (control !== null) return `label holds ${codePoint(control[0])}, a control character`;
  const bidi = BIDI.exec(label);
  if (bidi !== null) return `label holds ${codePoint(bidi[0])}, a bidirectional formatting character`;
  return null;
}

function isInstant(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;
}

export function parseKeyRecord(line: string): Result<KeyRecord, 'key-record-malformed'> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return fail('key-record-malformed', 'not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('key-record-malformed', 'not a JSON object');
  const r = value as Record<string, unknown>;
  const known = ['id', 'sha256', 'plan', 'label', 'created', 'expires', 'revoked'];
  const extra = Object.keys(r).find((k) => !known.includes(k));
  if (extra !== undefined) return fail('key-record-malformed', `unknown field "${extra}"`);
  if (typeof r['id'] !== 'string' || !ID.test(r['id'])) return fail('key-record-malformed', 'id must be 8 base64url characters');
  if (typeof r['sha256'] !== 'string' || !SHA256.test(r['sha256'])) return fail('key-record-malformed', 'sha256 must be 64 lowercase hex digits');
  if (typeof r['plan'] !== 'string' || r['plan'] === '') return fail('key-record-malformed', 'plan must be a plan name');
  if (typeof r['label'] !== 'string') return fail('key-record-malformed', `label must be text of at most ${MAX_LABEL} characters`);
  const badLabel = labelFault(r['label']);
  if (badLabel !== null) return fail('key-record-malformed', badLabel);
  if (!isInstant(r['created'])) return fail('key-record-malformed', 'created must be an ISO 8601 instant');
  for (const field of ['expires', 'revoked'] as const) {
    if (r[field] !== null && !isInstant(r[field])) return fail('key-record-malformed', `${field} must be null or an ISO 8601 instant`);
  }
  return ok(r as unknown as KeyRecord);
}

export function formatKeyRecord(record: KeyRecord): string {
  const { id, sha256, plan, label, created, expires, revoked } = record;
  return JSON.stringify({ id, sha256, plan, label, created, expires, revoked });
}
