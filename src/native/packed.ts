import { addressOfWords, type Address } from '../net/address';

// Reads the addon's one packed form (native/common/packed_js.h), in which both engines hand over their
// results: a Float64Array whose first number counts the numbers that follow, one string of ASCII texts
// back to back, and, only when there are any, an array of the other texts. A text stands in the numbers
// as its length in the ASCII string, OWN_TEXT for the next of the other texts, NO_TEXT for none; an address
// as its family (4 or 6, NO_TEXT for none) and then its bytes as big-endian 32-bit words. JS builds
// object literals from these far faster than N-API builds objects property by property.
// The numbers' array is the engine's own and may be longer than its count says: the engine reuses it for
// every call, so it must be read before the engine is called again. The reader sees only the counted part.

// The values an engine passes (as a callback's arguments, or in an array from DNS cancel()).
export type Packed = [numbers: Float64Array, ascii: string, others?: string[]];

// Where a reader stands: numbers, ASCII characters and own texts read.
export interface PackedMark {
  readonly n: number;
  readonly at: number;
  readonly t: number;
}

const OWN_TEXT = -1;
const NO_TEXT = -2;
const NO_OTHERS: readonly unknown[] = [];

// A uint32 the engine wrote (a TTL, a priority, an RDATA field), as V8's small integer where it fits. Read
// as it is, a number of a Float64Array is a double: an object field that holds one is a boxed double
// field for good, a heap number made per object, which JSON then writes through its slow double path.
// A function of its own, not a method: small enough that V8 always inlines it.
export function uint32(c: PackedReader): number {
  return c.num() >>> 0;
}

export class PackedReader {
  private readonly numbers: Float64Array;
  private readonly end: number;
  private readonly ascii: string;
  private readonly others: readonly unknown[];
  private n = 1;
  private at = 0;
  private t = 0;

  // `what` names the packing in errors ("packed ping result").
  constructor(private readonly what: string, numbers: unknown, ascii: unknown, others?: unknown) {
    if (!(numbers instanceof Float64Array) || numbers.length === 0) throw new TypeError(`${what}: numbers expected first`);
    if (typeof ascii !== 'string') throw new TypeError(`${what}: texts expected second`);
    this.end = Math.min(numbers.length, 1 + (numbers[0] as number));
    this.numbers = numbers.subarray(0, this.end);
    this.ascii = ascii;
    this.others = Array.isArray(others) ? others : NO_OTHERS;
  }

  static of(what: string, packed: readonly unknown[]): PackedReader {
    return new PackedReader(what, packed[0], packed[1], packed[2]);
  }

  // The next number, left to be read.
  peek(): number {
    if (this.n >= this.end) throw new TypeError(`${this.what}: number ${this.n} missing`);
    return this.numbers[this.n] as number;
  }

  // The number `ahead` places after the next, left to be read.
  peekAt(ahead: number): number {
    if (this.n + ahead >= this.end) throw new TypeError(`${this.what}: number ${this.n + ahead} missing`);
    return this.numbers[this.n + ahead] as number;
  }

  // The next number, unchecked: past the count it is undefined (the array is cut to the count), and whoever
  // reads an item calls checkRead() after it. With a check of its own this outgrew the bytecode size V8
  // always inlines, and the dns unpacking called it instead, some 6500 instructions a request.
  num(): number {
    return this.numbers[this.n++] as number;
  }

  // Refuses what was read if it took more numbers than the count holds.
  checkRead(): void {
    if (this.n > this.end) throw new TypeError(`${this.what}: number ${this.end} missing`);
  }

  str(): string {
    const x = this.optStr();
    if (x === undefined) throw new TypeError(`${this.what}: text expected before number ${this.n}`);
    return x;
  }

  optStr(): string | undefined {
    const length = this.num();
    if (length >= 0) {
      const from = this.at;
      this.at += length;
      if (this.at > this.ascii.length) throw new TypeError(`${this.what}: texts cut short`);
      return this.ascii.slice(from, this.at);
    }
    if (length === NO_TEXT) return undefined;
    const x = length === OWN_TEXT ? this.others[this.t++] : undefined;
    if (typeof x !== 'string') {
      this.checkRead(); // numbers that ran out are named as such
      throw new TypeError(`${this.what}: text ${this.t - 1} expected`);
    }
    return x;
  }

  // An address the engine handed back as bytes, made the one value (src/net/address.ts) here, its text
  // formatted once. The words are whole 32-bit numbers (the writer's).
  optAddress(): Address | undefined {
    const family = this.num();
    if (family === NO_TEXT) return undefined;
    if (family === 4) return addressOfWords(4, this.num());
    if (family !== 6) this.refuseFamily(family);
    return addressOfWords(6, this.num(), this.num(), this.num(), this.num());
  }

  // Past an address nobody will read (a ping reply's sender, which the reply does not show): checked as
  // optAddress checks it, without making the value or its text.
  skipAddress(): void {
    const family = this.num();
    if (family === NO_TEXT) return;
    if (family !== 4 && family !== 6) this.refuseFamily(family);
    for (let words = family === 4 ? 1 : 4; words > 0; words--) this.num();
  }

  private refuseFamily(family: number): never {
    this.checkRead();
    throw new TypeError(`${this.what}: address family ${family} before number ${this.n}`);
  }

  address(): Address {
    const x = this.optAddress();
    if (x === undefined) throw new TypeError(`${this.what}: address expected before number ${this.n}`);
    return x;
  }

  // A record that states its own size before it (ResultWriter::Report: its numbers after the three of its
  // size, its ASCII characters, its own texts): where the next one starts, whatever is read of this one.
  recordEnd(): PackedMark {
    const numbers = this.num();
    const chars = this.num();
    const texts = this.num();
    this.checkRead();
    const next = { n: this.n + numbers, at: this.at + chars, t: this.t + texts };
    if (!(numbers >= 0 && chars >= 0 && texts >= 0) || next.n > this.end || next.at > this.ascii.length || next.t > this.others.length) {
      throw new TypeError(`${this.what}: a record of ${numbers} numbers before number ${this.n} runs past the end`);
    }
    return next;
  }

  // Goes on from a mark recordEnd() gave.
  seek(mark: PackedMark): void {
    this.n = mark.n;
    this.at = mark.at;
    this.t = mark.t;
  }

  // Numbers not read yet.
  get remaining(): number {
    return this.end - this.n;
  }

  get done(): boolean {
    return this.n >= this.end;
  }
}
