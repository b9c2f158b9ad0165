// A count of places with a cap, for the whole process: in a SharedArrayBuffer, so every worker thread
// takes from the one count (a single thread simply has it to itself). A place is taken by
// compare-and-swap below the cap, so two threads can never both take the last one. Beside the total,
// what each worker holds: a thread that dies never gives its places back, and the supervisor does
// (forgetWorker) before it starts the replacement, as for the in-flight table.

export interface SharedCapMemory {
  counts: SharedArrayBuffer; // Int32: [total, held by worker 0, held by worker 1, ...]
  workers: number;
}

export function sharedCapMemory(workers = 1): SharedCapMemory {
  return { counts: new SharedArrayBuffer(4 * (1 + workers)), workers };
}

export class SharedCap {
  private readonly counts: Int32Array;

  constructor(
    memory: SharedCapMemory,
    readonly limit: number,
    private readonly worker = 0, // this thread's worker index
  ) {
    this.counts = new Int32Array(memory.counts);
  }

  // One more place, unless the cap is reached; the total never reads above it.
  take(): boolean {
    for (;;) {
      const now = Atomics.load(this.counts, 0);
      if (now >= this.limit) return false;
      if (Atomics.compareExchange(this.counts, 0, now, now + 1) === now) break;
    }
    Atomics.add(this.counts, 1 + this.worker, 1);
    return true;
  }

  // One more place whatever the cap: one already decided on (an agent's connection that replaces
  // another). take() refuses past the cap; this does not.
  add(): void {
    Atomics.add(this.counts, 0, 1);
    Atomics.add(this.counts, 1 + this.worker, 1);
  }

  // Gives back a place this thread took.
  give(): void {
    if (Atomics.load(this.counts, 1 + this.worker) === 0) return;
    Atomics.sub(this.counts, 1 + this.worker, 1);
    Atomics.sub(this.counts, 0, 1);
  }

  // Gives back every place `worker` held, once that thread is gone; returns how many.
  forgetWorker(worker: number): number {
    const held = Atomics.exchange(this.counts, 1 + worker, 0);
    Atomics.sub(this.counts, 0, held);
    return held;
  }

  get total(): number {
    return Atomics.load(this.counts, 0);
  }
}
