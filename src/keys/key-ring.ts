import type { Plan } from '../ratelimit/plans';
import { fail, ok, type Result } from '../util/result';
import { hashKey } from './api-key';
import { readKeyFile, type KeyFileError } from './key-file';
import type { KeyRecord } from './key-record';

export type ValidKey = { status: 'valid'; record: KeyRecord; plan: Plan; bucketKey: string };
export type KeyLookup = ValidKey | { status: 'unknown' | 'revoked' | 'expired'; id?: string };

interface Entry {
  record: KeyRecord;
  expiresMs: number; // Infinity when it never expires
  valid: ValidKey; // built once: every request with this key gets the same answer and the same bucket key string
}

// Authorization lines seen lately, so a client sending its key on every request pays one Map read, not
// a parse and a hash per request. Bounded: past this many the oldest is forgotten, and parsed and hashed
// again when it returns. Only lines whose key the ring holds are remembered, so made-up keys cannot push
// real ones out.
const REMEMBERED_MAX = 4096;

// The keys in force, by the hash of the key. Replaced whole on reload, so a lookup sees the old set
// or the new one, never a mix.
export class KeyRing {
  #entries = new Map<string, Entry>();
  #remembered = new Map<string, Entry>();

  private constructor(
    readonly path: string,
    private readonly plans: ReadonlyMap<string, Plan>,
  ) {}

  static open(path: string, plans: ReadonlyMap<string, Plan>): Result<KeyRing, KeyFileError> {
    const ring = new KeyRing(path, plans);
    const loaded = ring.reload();
    return loaded.ok ? ok(ring) : loaded;
  }

  get size(): number {
    return this.#entries.size;
  }

  // Reads the file again; on any fault the keys in force stay as they were.
  reload(): Result<number, KeyFileError> {
    const read = readKeyFile(this.path);
    if (!read.ok) return read;
    const entries = new Map<string, Entry>();
    for (const record of read.value) {
      const plan = this.plans.get(record.plan);
      if (plan === undefined) return fail('keys-file-malformed', `${this.path}: key ${record.id} names plan "${record.plan}", which NETTOOLS_PLANS does not configure`);
      const expiresMs = record.expires === null ? Infinity : Date.parse(record.expires);
      entries.set(record.sha256, { record, expiresMs, valid: { status: 'valid', record, plan, bucketKey: `key:${record.id}` } });
    }
    this.#entries = entries;
    this.#remembered = new Map();
    return ok(entries.size);
  }

  // What an Authorization line that named a key before says now (revoked, expired by the clock, or
  // valid); undefined for a line not remembered, which the caller parses and passes to `lookup`.
  recall(line: string, nowMs: number = Date.now()): KeyLookup | undefined {
    const entry = this.#remembered.get(line);
    return entry === undefined ? undefined : judge(entry, nowMs);
  }

  // The map is keyed by the hash, so the time a lookup takes tells about hashes of keys the caller
  // chose, never about a stored key: no constant-time compare is needed after it. `line`, the
  // Authorization line the key came in, is remembered for `recall` when the ring holds the key.
  lookup(key: string, nowMs: number = Date.now(), line?: string): KeyLookup {
    const entry = this.#entries.get(hashKey(key));
    if (entry === undefined) return { status: 'unknown' };
    if (line !== undefined) this.remember(line, entry);
    return judge(entry, nowMs);
  }

  private remember(line: string, entry: Entry): void {
    if (this.#remembered.size >= REMEMBERED_MAX) this.#remembered.delete(this.#remembered.keys().next().value as string);
    this.#remembered.set(line, entry);
  }
}

function judge(entry: Entry, nowMs: number): KeyLookup {
  const { record } = entry;
  if (record.revoked !== null) return { status: 'revoked', id: record.id };
  if (nowMs >= entry.expiresMs) return { status: 'expired', id: record.id };
  return entry.valid;
}
