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
  if (typeof r['label'] !== 'string' || r['label'].length > MAX_LABEL) return fail('key-record-malformed', `label must be text of at most ${MAX_LABEL} characters`);
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
