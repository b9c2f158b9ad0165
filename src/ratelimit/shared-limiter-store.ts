import type { AnswerCallback, BucketAnswer, LimiterStore } from './limiter-store';
import { fingerprint, GROUP_SIZE, SharedSlots, slotMemory, type SlotMemory } from './shared-slots';
import { spend, take, type BucketDecision, type BucketParams, type BucketState } from './token-bucket';

// Token buckets in shared memory, one table for every worker thread of the process: each answer is
// exact across threads because a bucket is read, decided and written under its group's lock, with
// the same arithmetic as everywhere else (token-bucket.ts).
//
// Time: each thread's performance.now() counts from that thread's own start, so readings are turned
// into milliseconds since the epoch (performance.timeOrigin + now) before they touch a shared bucket.
// A bucket full again (its expiry passed) is the same as an empty slot; a group with no such slot
// gives up its least recently updated bucket, which then starts full: the price of bounded memory.

export interface SharedLimiterMemory {
  slots: SlotMemory;
  values: SharedArrayBuffer; // Float64 level, updated, full-again instant per slot
}

export function sharedLimiterMemory(maxBuckets: number): SharedLimiterMemory {
  const slots = slotMemory(maxBuckets);
  return { slots, values: new SharedArrayBuffer(slots.groups * GROUP_SIZE * 3 * 8) };
}

export class SharedLimiterStore implements LimiterStore {
  private readonly table: SharedSlots;
  private readonly values: Float64Array;

  constructor(
    memory: SharedLimiterMemory,
    // This thread's performance.timeOrigin: callers hand in readings of this thread's performance.now().
    private readonly origin: number = performance.timeOrigin,
    owner = 1, // this thread's lock owner id (see SharedSlots)
  ) {
    this.table = new SharedSlots(memory.slots, owner);
    this.values = new Float64Array(memory.values);
  }

  // Answers after the group's lock is let go and the bucket written: a callback that throws holds no
  // lock and leaves no bucket half-written, and is not called again.
  take(key: string, rule: BucketParams, cost: number, nowMs: number, done: AnswerCallback): void {
    done(this.decide(key, nowMs, (state, at) => take(rule, state, at, cost)));
  }

  spend(key: string, rule: BucketParams, cost: number, nowMs: number, done: AnswerCallback): void {
    done(this.decide(key, nowMs, (state, at) => spend(rule, state, at, cost)));
  }

  // Reads, decides and writes one bucket under its group's lock.
  private decide(key: string, nowMs: number, decide: (state: BucketState | undefined, at: number) => BucketDecision): BucketAnswer {
    const at = Math.floor(this.origin + nowMs);
    const fp = fingerprint(key);
    const group = this.table.groupOf(fp);
    return this.table.locked(group, () => {
      let slot = this.table.find(group, fp);
      const taken = decide(slot === -1 ? undefined : this.stateOf(slot, at), at);
      if (slot === -1) {
        slot = this.vacancy(group, at);
        this.table.claim(slot, fp);
      }
      const v = 3 * slot;
      this.values[v] = taken.state.level;
      this.values[v + 1] = taken.state.updatedMs;
      this.values[v + 2] = at + taken.resetMs;
      return taken;
    });
  }

  peek(key: string, rule: BucketParams, nowMs: number, done: AnswerCallback): void {
    done(this.peekNow(key, rule, nowMs));
  }

  private peekNow(key: string, rule: BucketParams, nowMs: number): BucketAnswer {
    const at = Math.floor(this.origin + nowMs);
    const fp = fingerprint(key);
    const group = this.table.groupOf(fp);
    return this.table.locked(group, () => {
      const slot = this.table.find(group, fp);
      return take(rule, slot === -1 ? undefined : this.stateOf(slot, at), at, 0);
    });
  }

  // A bucket whose full-again instant has passed is full: the same as no bucket.
  private stateOf(slot: number, at: number): BucketState | undefined {
    const v = 3 * slot;
    if ((this.values[v + 2] as number) <= at) return undefined;
    return { level: this.values[v] as number, updatedMs: this.values[v + 1] as number };
  }

  // An empty slot, else one whose bucket is full again, else the least recently updated.
  private vacancy(group: number, at: number): number {
    const first = group * GROUP_SIZE;
    let oldest = first;
    for (let s = first; s < first + GROUP_SIZE; s++) {
      if (this.table.isEmpty(s) || (this.values[3 * s + 2] as number) <= at) return s;
      if ((this.values[3 * s + 1] as number) < (this.values[3 * oldest + 1] as number)) oldest = s;
    }
    return oldest;
  }

  // Buckets not yet full again (read at scrape time: a scan of the table).
  get size(): number {
    const at = Math.floor(this.origin + performance.now());
    let n = 0;
    for (let s = 0; s < this.table.slots; s++) if (!this.table.isEmpty(s) && (this.values[3 * s + 2] as number) > at) n++;
    return n;
  }

  get max(): number {
    return this.table.slots;
  }

  // Full buckets already count as empty slots; nothing to drop.
  prune(): boolean {
    return false;
  }
}
