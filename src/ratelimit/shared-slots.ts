// The bones of a table that several threads use at once, in SharedArrayBuffers: slots in groups of
// GROUP_SIZE, a key hashed to one group, one spin lock per group held only for a few loads and stores.
// A key never leaves its group, so a lookup touches one lock and at most GROUP_SIZE slots; when a group
// is full the caller decides which slot to give up (the way nginx's limit_req zone forgets its least
// recently used state). Keys are kept as a 64-bit fingerprint, never as text.

export const GROUP_SIZE = 8;

export interface SlotMemory {
  groups: number; // a power of two
  locks: SharedArrayBuffer; // Int32 per group
  fingerprints: SharedArrayBuffer; // two Int32 per slot; 0,0 is an empty slot
}

export function slotMemory(minSlots: number): SlotMemory {
  let groups = 1;
  while (groups * GROUP_SIZE < minSlots) groups *= 2;
  const slots = groups * GROUP_SIZE;
  return { groups, locks: new SharedArrayBuffer(groups * 4), fingerprints: new SharedArrayBuffer(slots * 8) };
}

export interface Fingerprint {
  hi: number;
  lo: number;
}

// Two FNV-1a hashes of the key's UTF-16 code units with different offsets; the low one is made odd so
// that no key is the empty fingerprint.
export function fingerprint(key: string): Fingerprint {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) + (b >>> 15);
  }
  return { hi: a | 0, lo: (b | 1) | 0 };
}

export class SharedSlots {
  readonly groups: number;
  private readonly locks: Int32Array;
  private readonly prints: Int32Array;

  // `owner`: what this thread writes into a lock it holds (its worker index + 1), so that the locks of
  // a thread that died holding one can be told apart and broken (breakLocks).
  constructor(
    memory: SlotMemory,
    private readonly owner = 1,
  ) {
    this.groups = memory.groups;
    this.locks = new Int32Array(memory.locks);
    this.prints = new Int32Array(memory.fingerprints);
  }

  get slots(): number {
    return this.groups * GROUP_SIZE;
  }

  groupOf(fp: Fingerprint): number {
    return (fp.hi >>> 0) & (this.groups - 1);
  }

  // Runs `inside` with the group's lock held. Critical sections are a few dozen instructions, so the
  // waiting thread spins.
  locked<T>(group: number, inside: () => T): T {
    while (Atomics.compareExchange(this.locks, group, 0, this.owner) !== 0) {
      // another thread holds it for a handful of loads and stores
    }
    try {
      return inside();
    } finally {
      Atomics.store(this.locks, group, 0);
    }
  }

  // Frees every lock `owner` holds: only for an owner that is gone (a worker thread that ended inside a
  // critical section), or its groups would stay locked for every other thread forever.
  static breakLocks(memory: SlotMemory, owner: number): number {
    const locks = new Int32Array(memory.locks);
    let broken = 0;
    for (let g = 0; g < memory.groups; g++) if (Atomics.compareExchange(locks, g, owner, 0) === owner) broken++;
    return broken;
  }

  // The slot holding `fp` in its group, or -1.
  find(group: number, fp: Fingerprint): number {
    const first = group * GROUP_SIZE;
    for (let s = first; s < first + GROUP_SIZE; s++) {
      if (this.prints[2 * s] === fp.hi && this.prints[2 * s + 1] === fp.lo) return s;
    }
    return -1;
  }

  claim(slot: number, fp: Fingerprint): void {
    this.prints[2 * slot] = fp.hi;
    this.prints[2 * slot + 1] = fp.lo;
  }

  clear(slot: number): void {
    this.prints[2 * slot] = 0;
    this.prints[2 * slot + 1] = 0;
  }

  isEmpty(slot: number): boolean {
    return this.prints[2 * slot] === 0 && this.prints[2 * slot + 1] === 0;
  }
}
