// Body deadlines for every request in flight, checked by one coarse timer instead of a setTimeout per
// request: arming and clearing a timer per request cost more than the rest of a small request's
// bookkeeping. A deadline fires up to one tick late, which is fine for a limit measured in seconds.
//
// Pending deadlines sit in a list ordered by time. Every request gets the same body timeout, so a new
// one belongs at the tail and adding, removing and sweeping touch only the entries concerned: no
// hashing, nothing to walk for a request whose body came in its first packet.
export interface Deadline {
  readonly at: number;
  prev: Deadline | null;
  next: Deadline | null;
  expire: (() => void) | null; // null once removed or fired
}

export class Deadlines {
  private head: Deadline | null = null;
  private tail: Deadline | null = null;
  private count = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    tickMs = 250,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.timer = setInterval(() => this.sweep(), tickMs).unref();
  }

  // `from`: a reading of this clock the caller already has (a request's arrival); else it is read here.
  add(afterMs: number, expire: () => void, from: number = this.now()): Deadline {
    const entry: Deadline = { at: from + afterMs, prev: null, next: null, expire };
    let after = this.tail;
    while (after !== null && after.at > entry.at) after = after.prev;
    entry.prev = after;
    entry.next = after === null ? this.head : after.next;
    if (entry.next === null) this.tail = entry;
    else entry.next.prev = entry;
    if (after === null) this.head = entry;
    else after.next = entry;
    this.count++;
    return entry;
  }

  remove(entry: Deadline): void {
    if (entry.expire === null) return;
    entry.expire = null;
    if (entry.prev === null) this.head = entry.next;
    else entry.prev.next = entry.next;
    if (entry.next === null) this.tail = entry.prev;
    else entry.next.prev = entry.prev;
    entry.prev = entry.next = null;
    this.count--;
  }

  get size(): number {
    return this.count;
  }

  sweep(): void {
    const now = this.now();
    while (this.head !== null && this.head.at <= now) {
      const entry = this.head;
      const expire = entry.expire as () => void;
      this.remove(entry);
      expire();
    }
  }

  close(): void {
    clearInterval(this.timer);
    while (this.head !== null) this.remove(this.head);
  }
}
