import { LOCATION_NAME, LOCATION_NAME_RULE } from '../config/location';
import { generateKey } from '../keys/api-key';
import { AGENT_KEYS, type AgentKeyRecord } from '../keys/agent-key-record';
import { readRecordFile, updateRecordFile } from '../keys/key-file';
import { fail, ok, type Result } from '../util/result';

// The agent half of `keys`: the same file machinery as API keys (lock, temporary file and rename, trust
// checks), with records that name a location instead of a plan.

export function createAgentKey(file: string, location: string, now: Date): Result<string, string> {
  if (!LOCATION_NAME.test(location)) return fail('bad-location', `--agent "${location}": ${LOCATION_NAME_RULE}`);
  let key = '';
  const written = updateRecordFile(file, AGENT_KEYS, (records) => {
    let made = generateKey();
    while (records.some((r) => r.id === made.id)) made = generateKey(); // 48-bit ids: a clash is rare, never kept
    key = made.key;
    const record: AgentKeyRecord = { id: made.id, sha256: made.sha256, location, created: now.toISOString(), revoked: null };
    return ok([...records, record]);
  });
  return written.ok ? ok(key) : written;
}

// The agent keys as `keys list` shows them: a table of its own, never a key or its hash.
export function listAgentKeys(file: string): Result<string, string> {
  const read = readRecordFile(file, AGENT_KEYS);
  if (!read.ok) return read;
  const rows = read.value.map((r) => [r.id, r.location, r.created, r.revoked ?? '-'].join('\t'));
  return ok(['agent id\tlocation\tcreated\trevoked', ...rows, ''].join('\n'));
}

// 'unknown-id' when the file holds no such key, so the caller can say so once for both files.
export function revokeAgentKey(file: string, id: string, now: Date): Result<true, string> {
  const written = updateRecordFile(file, AGENT_KEYS, (records) => {
    if (!records.some((r) => r.id === id)) return fail('unknown-id', `no key with id "${id}"`);
    return ok(records.map((r) => (r.id === id && r.revoked === null ? { ...r, revoked: now.toISOString() } : r)));
  });
  return written.ok ? ok(true) : written;
}
