import { timingSafeEqual } from 'node:crypto';
import type { Plan } from '../ratelimit/plans';
import { fail, ok, type Result } from '../util/result';
import { hashKey } from './api-key';
import { readKeyFile, type KeyFileError } from './key-file';
import type { KeyRecord } from './key-record';

export type KeyLookup = { status: 'valid'; record: KeyRecord; plan: Plan } | { status: 'unknown' | 'revoked' | 'expired'; id?: string };

interface Entry {
  record: KeyRecord;
  plan: Plan;
  hash: Buffer;
  expiresMs: number; // Infinity when it never expires
}

// The keys in force, by the hash of the key. Replaced whole on reload, so a lookup sees the old set
// or the new one, never a mix.
export class KeyRing {
  #entries = new Map<string, Entry>();

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
      entries.set(record.sha256, { record, plan, hash: Buffer.from(record.sha256, 'hex'), expiresMs });
    }
    this.#entries = entries;
    return ok(entries.size);
  }

  lookup(key: string, nowMs: number = Date.now()): KeyLookup {
    const hex = hashKey(key);
    const entry = this.#entries.get(hex);
    // The map found it by hash; the bytes are compared again in constant time all the same.
    if (entry === undefined || !timingSafeEqual(entry.hash, Buffer.from(hex, 'hex'))) return { status: 'unknown' };
    const { record, plan } = entry;
    if (record.revoked !== null) return { status: 'revoked', id: record.id };
    if (nowMs >= entry.expiresMs) return { status: 'expired', id: record.id };
    return { status: 'valid', record, plan };
  }
}
