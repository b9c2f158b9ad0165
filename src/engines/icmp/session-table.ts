// The pings that report, by engine session, for the look-up at every echo report. A Map's hash table of
// 5,000 sessions is cold at every report (its bucket, then its entry); here a session sits at its id's
// low bits in one array, and only one whose place is taken waits in a Map. Session ids count up from 1.
export class SessionTable<T extends { session: number }> {
  private readonly byLowBits: Array<T | undefined>;
  private readonly mask: number;
  private readonly overflow = new Map<number, T>();

  constructor(bits = 13) {
    this.mask = (1 << bits) - 1;
    this.byLowBits = new Array<T | undefined>(1 << bits).fill(undefined);
  }

  get(session: number): T | undefined {
    const held = this.byLowBits[session & this.mask];
    if (held !== undefined && held.session === session) return held;
    return this.overflow.size === 0 ? undefined : this.overflow.get(session);
  }

  set(value: T): void {
    const i = value.session & this.mask;
    if (this.byLowBits[i] === undefined) this.byLowBits[i] = value;
    else this.overflow.set(value.session, value);
  }

  delete(session: number): void {
    const i = session & this.mask;
    if (this.byLowBits[i]?.session === session) this.byLowBits[i] = undefined;
    else this.overflow.delete(session);
  }

  values(): T[] {
    return [...this.byLowBits.filter((v): v is T => v !== undefined), ...this.overflow.values()];
  }

  clear(): void {
    this.byLowBits.fill(undefined);
    this.overflow.clear();
  }
}
