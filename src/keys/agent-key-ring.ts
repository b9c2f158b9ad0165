import { ok, type Result } from '../util/result';
import { hashKey } from './api-key';
import { AGENT_KEYS, type AgentKeyRecord } from './agent-key-record';
import { readRecordFile, type KeyFileError } from './key-file';

export type AgentKeyLookup = { status: 'valid'; record: AgentKeyRecord } | { status: 'unknown' } | { status: 'revoked'; id: string };

// The agent keys in force, by the hash of the key; replaced whole on reload, as the API keys are.
export class AgentKeyRing {
  #byHash = new Map<string, AgentKeyRecord>();

  private constructor(readonly path: string) {}

  static open(path: string): Result<AgentKeyRing, KeyFileError> {
    const ring = new AgentKeyRing(path);
    const loaded = ring.reload();
    return loaded.ok ? ok(ring) : loaded;
  }

  get size(): number {
    return this.#byHash.size;
  }

  // Reads the file again; on any fault the keys in force stay as they were.
  reload(): Result<number, KeyFileError> {
    const read = readRecordFile(this.path, AGENT_KEYS);
    if (!read.ok) return read;
    this.#byHash = new Map(read.value.map((r) => [r.sha256, r]));
    return ok(this.#byHash.size);
  }

  lookup(key: string): AgentKeyLookup {
    return this.lookupHash(hashKey(key));
  }

  // What a key already let in says now: a connection keeps its key's hash, never the key.
  lookupHash(sha256: string): AgentKeyLookup {
    const record = this.#byHash.get(sha256);
    if (record === undefined) return { status: 'unknown' };
    if (record.revoked !== null) return { status: 'revoked', id: record.id };
    return { status: 'valid', record };
  }
}
