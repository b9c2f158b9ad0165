import { isIP } from 'node:net';
import { fail, ok, type Result } from '../util/result';

// IP literals and CIDR prefixes as plain bytes, parsed without any name resolution: every caller
// (rate-limit keys, trusted proxies, the ping target policy) must be able to rely on "text in,
// address or null out" with no I/O behind it.

export type IpFamily = 4 | 6;

export interface IpAddress {
  family: IpFamily;
  bytes: Uint8Array; // 4 or 16 bytes, network order
}

export interface Cidr {
  family: IpFamily;
  bytes: Uint8Array; // host bits are zero
  prefix: number;
}

// The longest literal we accept: a full IPv6 with an embedded IPv4 and brackets is 47 characters.
// Anything longer is garbage, and we do not hand it to a regular expression.
const MAX_LITERAL = 64;

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

// `[::1]` -> `::1`; any other text unchanged.
function stripBrackets(text: string): string {
  return text.length >= 2 && text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
}

/**
 * Parses an IPv4 or IPv6 literal (brackets allowed, no port, no zone id, no surrounding spaces).
 * IPv4-mapped IPv6 stays IPv6 here; use `unmapIPv4` or `normaliseIp` to see the IPv4 inside.
 */
export function parseIp(text: string): IpAddress | null {
  if (text.length === 0 || text.length > MAX_LITERAL) return null;
  const literal = stripBrackets(text);
  // Zone ids name an interface of this host; they never identify a client or a public target.
  if (literal.includes('%')) return null;
  // An IPv6 literal has a colon and an IPv4 one starts with a digit: a name, most of what comes here,
  // skips node:net's two long regular expressions (about 1300 instructions a dns request).
  const first = literal.charCodeAt(0);
  if ((first < 48 || first > 57) && !literal.includes(':')) return null;
  const family = isIP(literal);
  if (family === 4) return literal === text ? parseIPv4(literal) : null; // "[1.2.3.4]" is not a literal
  if (family === 6) return parseIPv6(literal);
  return null;
}

function parseIPv4(text: string): IpAddress | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i] ?? '';
    if (!/^\d{1,3}$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes[i] = value;
  }
  return { family: 4, bytes };
}

function parseGroups(text: string): number[] | null {
  if (text === '') return [];
  const groups: number[] = [];
  for (const group of text.split(':')) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    groups.push(parseInt(group, 16));
  }
  return groups;
}

function parseIPv6(text: string): IpAddress | null {
  let body = text;
  const tail: number[] = [];
  // An embedded dotted IPv4 fills the last two groups.
  const lastColon = body.lastIndexOf(':');
  if (body.indexOf('.', lastColon) !== -1) {
    const v4 = parseIPv4(body.slice(lastColon + 1));
    if (v4 === null) return null;
    const b = v4.bytes;
    tail.push(((b[0] ?? 0) << 8) | (b[1] ?? 0), ((b[2] ?? 0) << 8) | (b[3] ?? 0));
    body = body.slice(0, lastColon + 1);
    // "::1.2.3.4" leaves "::", "1::1.2.3.4" leaves "1::", "1:2:3:4:5:6:1.2.3.4" leaves "...6:".
    if (body.endsWith(':') && !body.endsWith('::')) body = body.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const head = parseGroups(halves[0] ?? '');
  const rest = halves.length === 2 ? parseGroups(halves[1] ?? '') : [];
  if (head === null || rest === null) return null;
  const explicit = head.length + rest.length + tail.length;
  let groups: number[];
  if (halves.length === 2) {
    if (explicit > 7) return null;
    groups = [...head, ...new Array<number>(8 - explicit).fill(0), ...rest, ...tail];
  } else {
    if (explicit !== 8) return null;
    groups = [...head, ...tail];
  }
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  return { family: 6, bytes };
}

/** True for `::ffff:a.b.c.d`. */
function isIPv4Mapped(address: IpAddress): boolean {
  return address.family === 6 && MAPPED_PREFIX.every((b, i) => address.bytes[i] === b);
}

/** The last 32 bits of an IPv6 address as an IPv4 address (for mapped, NAT64 and similar forms). */
export function lastIPv4(address: IpAddress): IpAddress {
  return { family: 4, bytes: address.bytes.slice(address.bytes.length - 4) };
}

/** IPv4-mapped IPv6 becomes the IPv4 address it carries; anything else is returned as is. */
export function unmapIPv4(address: IpAddress): IpAddress {
  return isIPv4Mapped(address) ? lastIPv4(address) : address;
}

// Every byte's hex, made once: an IPv6 text is then a few appends (100 ns, where group arrays, map and
// join took 315; glibc's inet_ntop, which the engines ran before, 145).
const HEX: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16));
const HEX2: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Dotted quad of four bytes. */
export function dotted(a: number, b: number, c: number, d: number): string {
  return `${a}.${b}.${c}.${d}`;
}

function hexGroup(g: number): string {
  const high = g >>> 8;
  return high === 0 ? HEX[g]! : HEX[high]! + HEX2[g & 0xff]!;
}

/**
 * Dotted quad for IPv4, RFC 5952 text for IPv6 (mapped addresses as `::ffff:a.b.c.d`), character for
 * character what glibc's inet_ntop writes, which made the engines' texts before they handed back bytes:
 * the one deprecated IPv4-compatible form (`::a.b.c.d`, six zero groups first) keeps its dotted tail too.
 * One pass over the bytes, no arrays: every dns answer and every trace hop's sender is formatted here.
 */
export function formatIp(address: IpAddress): string {
  const b = address.bytes as unknown as number[];
  if (address.family === 4) return dotted(b[0]!, b[1]!, b[2]!, b[3]!);
  const groups = [0, 0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < 8; i++) groups[i] = (b[2 * i]! << 8) | b[2 * i + 1]!;
  return formatGroups(groups);
}

/** The same text for IPv6 given as four big-endian 32-bit words (as the engines hand it back). */
export function formatIPv6Words(w0: number, w1: number, w2: number, w3: number): string {
  return formatGroups([w0 >>> 16, w0 & 0xffff, w1 >>> 16, w1 & 0xffff, w2 >>> 16, w2 & 0xffff, w3 >>> 16, w3 & 0xffff]);
}

function formatGroups(g: number[]): string {
  // RFC 5952 4.2: compress the longest run of two or more zero groups, the first one on a tie.
  let bestStart = -1;
  let bestLength = 1;
  let runStart = -1;
  for (let i = 0; i < 8; i++) {
    if (g[i] !== 0) {
      runStart = -1;
      continue;
    }
    if (runStart < 0) runStart = i;
    if (i - runStart + 1 > bestLength) {
      bestStart = runStart;
      bestLength = i - runStart + 1;
    }
  }
  if (bestStart === 0 && (bestLength === 6 || (bestLength === 5 && g[5] === 0xffff))) {
    const g6 = g[6]!;
    const g7 = g[7]!;
    return (bestLength === 6 ? '::' : '::ffff:') + dotted(g6 >>> 8, g6 & 0xff, g7 >>> 8, g7 & 0xff);
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === bestStart) {
      out += '::';
      i += bestLength - 1;
    } else {
      if (out.length > 0 && i !== bestStart + bestLength) out += ':';
      out += hexGroup(g[i]!);
    }
  }
  return out;
}

/**
 * Canonical text of an IP literal, or null when the text is not one. IPv4-mapped IPv6 is turned into
 * plain IPv4, because that is what the address is on the wire (uWebSockets.js reports IPv4 peers so).
 */
export function normaliseIp(text: string): string | null {
  const address = parseIp(text);
  return address === null ? null : formatIp(unmapIPv4(address));
}

/** True when the first `bits` bits of `a` and `b` agree. */
function prefixMatches(a: Uint8Array, b: Uint8Array, bits: number): boolean {
  const whole = bits >> 3;
  for (let i = 0; i < whole; i++) if (a[i] !== b[i]) return false;
  const rest = bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((a[whole] ?? 0) & mask) === ((b[whole] ?? 0) & mask);
}

function maskBytes(bytes: Uint8Array, bits: number): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - 8 * i));
    out[i] = (bytes[i] ?? 0) & ((0xff << (8 - keep)) & 0xff);
  }
  return out;
}

export type CidrErrorCode = 'cidr-malformed' | 'cidr-prefix-out-of-range' | 'cidr-host-bits-set';

/**
 * Parses `addr/prefix` or a bare address (a single-host prefix). Host bits must be zero, so that
 * a typo such as `10.1.0.0/8` stops the server instead of trusting more than was meant.
 * `::ffff:a.b.c.d/n` with n >= 96 is read as the IPv4 prefix it denotes.
 */
export function parseCidr(text: string): Result<Cidr, CidrErrorCode> {
  const slash = text.indexOf('/');
  const addressText = slash === -1 ? text : text.slice(0, slash);
  const prefixText = slash === -1 ? null : text.slice(slash + 1);
  const parsed = parseIp(addressText);
  if (parsed === null) return fail('cidr-malformed', `"${text}" is not an IP address or CIDR prefix`);
  const width = parsed.family === 4 ? 32 : 128;
  let prefix = width;
  if (prefixText !== null) {
    if (!/^\d{1,3}$/.test(prefixText)) return fail('cidr-malformed', `"${text}" has no valid prefix length`);
    prefix = Number(prefixText);
    if (prefix > width) return fail('cidr-prefix-out-of-range', `"${text}": prefix length must be 0..${width}`);
  }
  const masked = maskBytes(parsed.bytes, prefix);
  if (!masked.every((b, i) => b === parsed.bytes[i])) {
    return fail('cidr-host-bits-set', `"${text}" has bits set after the prefix; did you mean ${formatIp({ family: parsed.family, bytes: masked })}/${prefix}?`);
  }
  if (isIPv4Mapped(parsed) && prefix >= 96) {
    return ok({ family: 4, bytes: masked.slice(12), prefix: prefix - 96 });
  }
  return ok({ family: parsed.family, bytes: masked, prefix });
}

/** Comma-separated CIDR list (spaces around items allowed; empty text is an empty list). */
export function parseCidrList(text: string): Result<Cidr[], CidrErrorCode> {
  const list: Cidr[] = [];
  if (text.trim() === '') return ok(list);
  for (const item of text.split(',')) {
    const parsed = parseCidr(item.trim());
    if (!parsed.ok) return parsed;
    list.push(parsed.value);
  }
  return ok(list);
}

/** Whether `address` lies in `cidr`; IPv4-mapped IPv6 addresses match IPv4 prefixes. */
export function cidrContains(cidr: Cidr, address: IpAddress | string): boolean {
  const parsed = typeof address === 'string' ? parseIp(address) : address;
  if (parsed === null) return false;
  const candidate = cidr.family === 4 ? unmapIPv4(parsed) : parsed;
  return candidate.family === cidr.family && prefixMatches(candidate.bytes, cidr.bytes, cidr.prefix);
}

// Four decimal octets 0-255 without leading zeros: the form peerText and formatIp write. A loop over
// char codes: client keys check it on every tool request, and node:net's isIPv4 is a long regex.
export function isCanonicalIPv4(text: string): boolean {
  if (text.length < 7 || text.length > 15) return false;
  let octets = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i === text.length ? 46 : text.charCodeAt(i); // a final '.' closes the last octet
    if (c === 46) {
      if (digits === 0 || value > 255) return false;
      octets++;
      value = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits === 1 && value === 0) return false; // a leading zero
      value = value * 10 + (c - 48);
      digits++;
      if (digits > 3) return false;
    } else {
      return false;
    }
  }
  return octets === 4;
}
