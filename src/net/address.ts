import { dotted, formatIp, formatIPv6Words, parseIp, type IpAddress, type IpFamily } from './ip';

// An IP address once parsed: its family, its bytes and its canonical text, made here and nowhere else.
// The parsed target travels as this value from the schema to the engine, and the engines' answers come
// back as it (src/native/packed.ts), so no layer (target policy, budget keys, the engines, a trace's
// end, a dns record's identity) reads an address as text again. It is an IpAddress (src/net/ip.ts: the
// family and bytes alone, what the prefix and policy code reads) with its text: one value, not two.
export interface Address extends Readonly<IpAddress> {
  readonly text: string; // dotted quad, or RFC 5952 IPv6 (mapped as `::ffff:a.b.c.d`), as inet_ntop writes it
}

// `::ffff:a.b.c.d` spelled with the dotted IPv4: the caller means that IPv4 host, pinged as IPv4. A
// mapped address spelled in hex stays IPv6 (and the target policy refuses it as `ipv4-mapped`).
const MAPPED_DOTTED = /^::ffff:\d{1,3}(?:\.\d{1,3}){3}$/i;

/**
 * The value of an IP literal (brackets allowed, no zone id), or null when the text is not one.
 * IPv4-mapped IPv6 written with its dotted IPv4 becomes that IPv4 address.
 */
export function parseAddress(text: string): Address | null {
  const v4 = dottedQuad(text);
  if (v4 !== null) return v4;
  const parsed = parseIp(text);
  if (parsed === null) return null;
  if (parsed.family === 6 && MAPPED_DOTTED.test(stripBrackets(text))) return addressOf(4, parsed.bytes.slice(12));
  return addressOf(parsed.family, parsed.bytes);
}

/** The value of 4 or 16 bytes already in hand (e.g. a resolver's answer, once parsed). */
export function addressOf(family: IpFamily, bytes: Uint8Array): Address {
  if (bytes.length !== (family === 4 ? 4 : 16)) throw new RangeError(`an IPv${family} address has ${family === 4 ? 4 : 16} bytes, not ${bytes.length}`);
  return { family, bytes, text: formatIp({ family, bytes }) };
}

/**
 * The value of an address the engines handed back as big-endian 32-bit words (src/native/packed.ts):
 * one word for IPv4, four for IPv6. A plain value like every other (one shape wherever addresses go);
 * its text made here, once, from the words.
 */
export function addressOfWords(family: IpFamily, w0: number, w1 = 0, w2 = 0, w3 = 0): Address {
  if (family === 4) {
    const bytes = new Uint8Array(4);
    bytes[0] = w0 >>> 24;
    bytes[1] = w0 >>> 16;
    bytes[2] = w0 >>> 8;
    bytes[3] = w0;
    return { family, bytes, text: dotted(bytes[0], bytes[1], bytes[2], bytes[3]) };
  }
  // Shifts, not a DataView: `.buffer` of a small typed array moves it off the heap (4x the whole decode).
  const bytes = new Uint8Array(16);
  putWord(bytes, 0, w0);
  putWord(bytes, 4, w1);
  putWord(bytes, 8, w2);
  putWord(bytes, 12, w3);
  return { family, bytes, text: formatIPv6Words(w0, w1, w2, w3) };
}

function putWord(bytes: Uint8Array, at: number, w: number): void {
  bytes[at] = w >>> 24;
  bytes[at + 1] = w >>> 16;
  bytes[at + 2] = w >>> 8;
  bytes[at + 3] = w;
}

// Four decimal octets 0-255 without leading zeros (the only IPv4 form a host may take) read in one pass
// over char codes: the common target, on every ping, parsed without regular expressions. Its text is
// already canonical. Anything else (IPv6, "01.2.3.4", names) is null here and goes the general way.
function dottedQuad(text: string): Address | null {
  if (text.length < 7 || text.length > 15) return null;
  const bytes = new Uint8Array(4);
  let octet = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i === text.length ? 46 : text.charCodeAt(i); // a final '.' closes the last octet
    if (c === 46) {
      if (digits === 0 || value > 255 || octet > 3) return null;
      bytes[octet++] = value;
      value = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57 && digits < 3 && !(digits === 1 && value === 0)) {
      value = value * 10 + (c - 48);
      digits++;
    } else {
      return null;
    }
  }
  return octet === 4 ? { family: 4, bytes, text } : null;
}

/** Whether two values are the same address: family and bytes, no text read. */
export function sameAddress(a: Address, b: Address): boolean {
  if (a.family !== b.family) return false;
  const x = a.bytes;
  const y = b.bytes;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function stripBrackets(text: string): string {
  return text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
}
