// Body deadlines for every request in flight, checked by one coarse timer instead of a setTimeout per
// request: arming and clearing a timer per request cost more than the rest of a small request's
// bookkeeping. A deadline fires up to one tick late, which is fine for a limit measured in seconds.
export class Deadlines {
  private readonly pending = new Map<object, { at: number; expire: () => void }>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    tickMs = 250,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.timer = setInterval(() => this.sweep(), tickMs).unref();
  }

  add(key: object, afterMs: number, expire: () => void): void {
    this.pending.set(key, { at: this.now() + afterMs, expire });
  }

  remove(key: object): void {
    this.pending.delete(key);
  }

  get size(): number {
    return this.pending.size;
  }

  sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.pending) {
      if (entry.at > now) continue;
      this.pending.delete(key);
      entry.expire();
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.pending.clear();
  }
}
