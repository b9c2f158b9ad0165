import { LOCATION_NAME, LOCATION_NAME_RULE } from '../config/location';
import { fail, ok, type Result } from '../util/result';

// One line of the agent keys file: a key lets exactly one location connect to the hub.
export interface AgentKeyRecord {
  id: string;
  sha256: string; // hex of SHA-256 over the key's text
  location: string;
  created: string; // ISO 8601
  revoked: string | null; // ISO 8601: when it was revoked
}

const ID = /^[A-Za-z0-9_-]{8}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const FIELDS = ['id', 'sha256', 'location', 'created', 'revoked'];

function isInstant(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;
}

export function parseAgentKeyRecord(line: string): Result<AgentKeyRecord, 'agent-key-record-malformed'> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return fail('agent-key-record-malformed', 'not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('agent-key-record-malformed', 'not a JSON object');
  const r = value as Record<string, unknown>;
  const extra = Object.keys(r).find((k) => !FIELDS.includes(k));
  if (extra !== undefined) return fail('agent-key-record-malformed', `unknown field "${extra}"`);
  if (typeof r['id'] !== 'string' || !ID.test(r['id'])) return fail('agent-key-record-malformed', 'id must be 8 base64url characters');
  if (typeof r['sha256'] !== 'string' || !SHA256.test(r['sha256'])) return fail('agent-key-record-malformed', 'sha256 must be 64 lowercase hex digits');
  if (typeof r['location'] !== 'string' || !LOCATION_NAME.test(r['location'])) return fail('agent-key-record-malformed', LOCATION_NAME_RULE);
  if (!isInstant(r['created'])) return fail('agent-key-record-malformed', 'created must be an ISO 8601 instant');
  if (r['revoked'] !== null && !isInstant(r['revoked'])) return fail('agent-key-record-malformed', 'revoked must be null or an ISO 8601 instant');
  return ok(r as unknown as AgentKeyRecord);
}

export function formatAgentKeyRecord(record: AgentKeyRecord): string {
  const { id, sha256, location, created, revoked } = record;
  return JSON.stringify({ id, sha256, location, created, revoked });
}

export const AGENT_KEYS = { parse: parseAgentKeyRecord, format: formatAgentKeyRecord };
