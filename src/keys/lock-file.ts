import { closeSync, fstatSync, openSync, statSync, unlinkSync, type BigIntStats } from 'node:fs';
import { fail, ok, type Result } from '../util/result';

// A lock file for writers on one machine: taken by creating it with O_EXCL, held while its holder works,
// removed when it is done. One older than STALE_MS was left by a writer that died, and is taken over.
//
// Removing a lock, whether its holder releases it or a taker removes a stale one, must remove that very
// lock and never another: between seeing a stale lock and unlinking the name, that lock may have been
// removed by another taker and a fresh one created under the same name, and two takers who both unlink
// and create both believe they hold it. So the right to end a lock is claimed first, by creating with
// O_EXCL a marker named after the lock, its inode and mtime: for each lock exactly one process wins the
// marker. The winner then checks that the name still holds that lock, and only then unlinks it: nobody
// else can unlink it in between, since that needs the same marker. (A fresh lock may get a stale one's
// inode number again, never its mtime, which is STALE_MS older.) A taker that removed a stale lock holds
// nothing: it goes back to O_EXCL like everyone else.
//
// The holder claims its own lock's end as soon as it has it and keeps the claim while it works, so no
// taker can end a lock whose holder is still working. A marker left by a process that died (its age past
// STALE_MS) is ended the same way, with a marker of its own, up to a few levels deep.

const STALE_MS = 30_000;
const MAX_MARKER_DEPTH = 3;

export type LockError = 'keys-file-locked' | 'keys-file-unreadable';

interface LockId {
  ino: bigint;
  mtimeNs: bigint;
}

const NOT_CLAIMED = Symbol('not claimed');

function idOf(stats: BigIntStats): LockId {
  return { ino: stats.ino, mtimeNs: stats.mtimeNs };
}

function statQuietly(path: string): BigIntStats | undefined {
  return statSync(path, { bigint: true, throwIfNoEntry: false });
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone: nothing to undo
  }
}

// Runs `body` if this call wins the right to end the lock `id` at `path` and the name still holds it;
// NOT_CLAIMED when another process holds that right, or the lock is gone.
function whileClaimed<T>(path: string, id: LockId, body: () => T, depth = 0): T | typeof NOT_CLAIMED {
  const marker = `${path}.end-${id.ino}-${id.mtimeNs}`;
  try {
    closeSync(openSync(marker, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    if (depth < MAX_MARKER_DEPTH) endIfStale(marker, depth + 1);
    return NOT_CLAIMED;
  }
  try {
    return isStill(path, id) ? body() : NOT_CLAIMED;
  } finally {
    unlinkQuietly(marker);
  }
}

// Removes the lock (or marker) at `path` if it is older than STALE_MS and nobody else is ending it.
// True when the name may now be free: it was removed, or was already gone.
function endIfStale(path: string, depth = 0): boolean {
  const seen = statQuietly(path);
  if (seen === undefined) return true;
  if (Date.now() - Number(seen.mtimeMs) <= STALE_MS) return false;
  return whileClaimed(path, idOf(seen), () => unlinkSync(path), depth) !== NOT_CLAIMED;
}

function isStill(path: string, id: LockId): boolean {
  const now = statQuietly(path);
  return now !== undefined && now.ino === id.ino && now.mtimeNs === id.mtimeNs;
}

function take(path: string, waitMs: number): Result<LockId, LockError> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        return ok(idOf(fstatSync(fd, { bigint: true })));
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return fail('keys-file-unreadable', `cannot create ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    const freed = endIfStale(path);
    if (Date.now() > deadline) return fail('keys-file-locked', `${path} is held by another writer; try again`);
    if (!freed) sleep(10 + Math.random() * 20);
  }
}

// Runs `body` holding the lock at `path`, waiting up to `waitMs` for it; the lock is removed afterwards,
// whatever `body` does. A holder is expected to be done well within STALE_MS.
export function withLock<T>(path: string, waitMs: number, body: () => T): Result<T, LockError> {
  const taken = take(path, waitMs);
  if (!taken.ok) return taken;
  const mine = taken.value;
  const release = () => isStill(path, mine) && unlinkSync(path);
  let ran: T | typeof NOT_CLAIMED;
  try {
    ran = whileClaimed(path, mine, () => {
      try {
        return body();
      } finally {
        release();
      }
    });
  } catch (err) {
    release();
    throw err;
  }
  // Only a taker that judged this fresh lock stale could have ended it first: a clock gone very wrong.
  if (ran === NOT_CLAIMED) return fail('keys-file-locked', `${path} was removed by another writer before this one could work; nothing was written; try again`);
  return ok(ran);
}
