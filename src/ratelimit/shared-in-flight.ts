import type { InFlightCaps, SlotRefusal } from './in-flight';
import { fingerprint, GROUP_SIZE, SharedSlots, slotMemory, type SlotMemory } from './shared-slots';

// Requests in flight per client and for the whole process, in shared memory, so the caps hold across
// worker threads. A client's count lives in its group's slot while it is above zero; the total is one
// atomic counter raised by compare-and-swap below the cap, so two threads can never both take the last
// slot. Beside each count, what each worker holds of it: a worker thread that dies never releases its
// requests, and the supervisor gives them back (forgetWorker) before it starts the replacement.

export interface SharedInFlightMemory {
  slots: SlotMemory;
  counts: SharedArrayBuffer; // Int32 per slot
  totals: SharedArrayBuffer; // Int32: [requests, clients]
  workers: number;
  held: SharedArrayBuffer; // Int32 per slot and worker: slot * workers + worker
}

export function sharedInFlightMemory(global: number, workers = 1): SharedInFlightMemory {
  // Room for every request in flight to come from a different client, twice over.
  const slots = slotMemory(Math.min(2 * global, 1 << 22));
  const n = slots.groups * GROUP_SIZE;
  return { slots, counts: new SharedArrayBuffer(n * 4), totals: new SharedArrayBuffer(8), workers, held: new SharedArrayBuffer(n * workers * 4) };
}

export class SharedInFlight implements InFlightCaps {
  private readonly table: SharedSlots;
  private readonly counts: Int32Array;
  private readonly totals: Int32Array;
  private readonly held: Int32Array;
  private readonly workers: number;

  constructor(
    memory: SharedInFlightMemory,
    private readonly perClient: number,
    private readonly global: number,
    private readonly retryAfterSeconds = 1,
    private readonly worker = 0, // this thread's worker index
  ) {
    this.table = new SharedSlots(memory.slots, worker + 1);
    this.counts = new Int32Array(memory.counts);
    this.totals = new Int32Array(memory.totals);
    this.held = new Int32Array(memory.held);
    this.workers = memory.workers;
  }

  acquire(key: string, perClient: number = this.perClient): SlotRefusal | null {
    const fp = fingerprint(key);
    const group = this.table.groupOf(fp);
    return this.table.locked(group, () => {
      let slot = this.table.find(group, fp);
      const mine = slot === -1 ? 0 : (this.counts[slot] as number);
      if (mine >= perClient) return { code: 'too-many-concurrent', limit: perClient };
      if (slot === -1) slot = this.vacancy(group);
      // A group whose every slot holds a busy client: as good as the server being full.
      if (slot === -1 || !this.raiseTotal()) return { code: 'overloaded', limit: this.global, retryAfterSeconds: this.retryAfterSeconds };
      if (mine === 0) {
        this.table.claim(slot, fp);
        Atomics.add(this.totals, 1, 1);
      }
      this.counts[slot] = mine + 1;
      this.held[slot * this.workers + this.worker] = (this.held[slot * this.workers + this.worker] as number) + 1;
      return null;
    });
  }

  release(key: string): void {
    const fp = fingerprint(key);
    const group = this.table.groupOf(fp);
    this.table.locked(group, () => {
      const slot = this.table.find(group, fp);
      const mine = slot === -1 ? 0 : (this.held[slot * this.workers + this.worker] as number);
      if (mine === 0) return;
      this.held[slot * this.workers + this.worker] = mine - 1;
      this.drop(slot, 1);
    });
  }

  // Gives back every request `worker` held, once that thread is gone; returns how many. Called by the
  // supervisor, with the dead thread's locks already broken.
  forgetWorker(worker: number): number {
    let freed = 0;
    for (let group = 0; group < this.table.groups; group++) {
      this.table.locked(group, () => {
        for (let slot = group * GROUP_SIZE; slot < (group + 1) * GROUP_SIZE; slot++) {
          const at = slot * this.workers + worker;
          const n = this.held[at] as number;
          if (n === 0) continue;
          this.held[at] = 0;
          this.drop(slot, n);
          freed += n;
        }
      });
    }
    return freed;
  }

  // Under the slot's group lock: `n` fewer requests of the slot's client in flight.
  private drop(slot: number, n: number): void {
    Atomics.sub(this.totals, 0, n);
    const left = (this.counts[slot] as number) - n;
    this.counts[slot] = left;
    if (left > 0) return;
    this.table.clear(slot);
    Atomics.sub(this.totals, 1, 1);
  }

  // One more request in flight, unless that passes the cap; the total never reads above it.
  private raiseTotal(): boolean {
    for (;;) {
      const now = Atomics.load(this.totals, 0);
      if (now >= this.global) return false;
      if (Atomics.compareExchange(this.totals, 0, now, now + 1) === now) return true;
    }
  }

  private vacancy(group: number): number {
    const first = group * GROUP_SIZE;
    for (let s = first; s < first + GROUP_SIZE; s++) if (this.counts[s] === 0) return s;
    return -1;
  }

  get total(): number {
    return Atomics.load(this.totals, 0);
  }

  get clients(): number {
    return Atomics.load(this.totals, 1);
  }
}
