import { cidrContains, formatIp, isCanonicalIPv4, parseIp, unmapIPv4, type Cidr, type IpAddress } from '../net/ip';

// Who is the client, for rate limiting and concurrency caps.

/** Client address used when the socket peer is not an IP literal (it then shares one bucket). */
export const UNKNOWN_CLIENT = 'unknown';

/** We look at no more than this many trailing characters of X-Forwarded-For. */
export const MAX_FORWARDED_LENGTH = 2048;

/**
 * One X-Forwarded-For entry: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`, `[2001:db8::1]`,
 * `[2001:db8::1]:5678`. Anything else (`unknown`, host names, obfuscated ids, junk) is null.
 */
export function parseForwardedEntry(entry: string): IpAddress | null {
  const text = entry.trim();
  let literal = text;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close === -1) return null;
    const rest = text.slice(close + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return null;
    literal = text.slice(1, close);
    const parsed = parseIp(literal);
    return parsed !== null && parsed.family === 6 ? unmapIPv4(parsed) : null;
  }
  const colon = text.indexOf(':');
  if (colon !== -1 && colon === text.lastIndexOf(':')) {
    // Exactly one colon: only IPv4 with a port can look like that.
    if (!/^\d{1,5}$/.test(text.slice(colon + 1))) return null;
    literal = text.slice(0, colon);
    const parsed = parseIp(literal);
    return parsed !== null && parsed.family === 4 ? parsed : null;
  }
  const parsed = parseIp(literal);
  return parsed === null ? null : unmapIPv4(parsed);
}

function isTrusted(address: IpAddress, trusted: readonly Cidr[]): boolean {
  return trusted.some((cidr) => cidrContains(cidr, address));
}

/**
 * The client's address as canonical text (IPv4 dotted, IPv6 RFC 5952).
 *
 * `peer` is the socket peer as text: the server passes it canonical already (see http/peer.ts), and
 * IPv4-mapped IPv6 forms such as `0000:0000:0000:0000:0000:ffff:7f00:0001` parse too. X-Forwarded-For is believed only when the peer is
 * in `trusted`; then it is walked right to left, skipping trusted proxies, and the first untrusted
 * entry is the client. An entry that does not parse ends the walk and the last good hop is taken
 * instead: whoever wrote the garbage is not a proxy we trust, and garbage is never a key. Only the
 * last MAX_FORWARDED_LENGTH characters are read (the right-hand end is what our proxies wrote).
 * Give the header's value with all X-Forwarded-For lines joined by commas, as RFC 9110 allows.
 */
export function clientAddress(peer: string, xff: string | undefined, trusted: readonly Cidr[]): string {
  const parsedPeer = parseIp(peer);
  if (parsedPeer === null) return UNKNOWN_CLIENT;
  let client = unmapIPv4(parsedPeer);
  if (xff === undefined || !isTrusted(client, trusted)) return formatIp(client);

  let header = xff;
  if (header.length > MAX_FORWARDED_LENGTH) {
    header = header.slice(-MAX_FORWARDED_LENGTH);
    // The cut left a partial entry in front; drop it rather than mistake a fragment for an address.
    const comma = header.indexOf(',');
    header = comma === -1 ? '' : header.slice(comma + 1);
  }
  if (header.trim() === '') return formatIp(client);
  const entries = header.split(',');
  for (let i = entries.length - 1; i >= 0; i--) {
    const hop = parseForwardedEntry(entries[i] ?? '');
    if (hop === null) break;
    client = hop;
    if (!isTrusted(hop, trusted)) break;
  }
  return formatIp(client);
}

/**
 * The rate-limit key for a client address: IPv4 as is, IPv6 by its /64 (`2001:db8:1:2::/64`), since
 * one IPv6 subscriber usually holds a whole /64 and could otherwise rotate through it.
 * IPv4-mapped IPv6 is keyed as IPv4. Text that is not an address is returned unchanged.
 */
export function clientKey(address: string): string {
  // Canonical dotted IPv4 (what the server hands in) is its own key: no parse on the hot path.
  if (isCanonicalIPv4(address)) return address;
  const parsed = parseIp(address);
  if (parsed === null) return address;
  const ip = unmapIPv4(parsed);
  if (ip.family === 4) return formatIp(ip);
  const prefix = new Uint8Array(16);
  prefix.set(ip.bytes.subarray(0, 8));
  return `${formatIp({ family: 6, bytes: prefix })}/64`;
}
