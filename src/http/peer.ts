import { isIPv6 } from 'node:net';

// uWS gives every peer as IPv6 text, IPv4 ones mapped ("0000:...:ffff:7f00:0001"); key and log them as people write them.
export function normalisePeer(text: string): string {
  const m = /^(?:0{1,4}:){5}ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(text) ?? /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(text);
  if (m) {
    const hi = parseInt(m[1] as string, 16);
    const lo = parseInt(m[2] as string, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(text)) return text.slice(7);
  return isIPv6(text) ? compressIPv6(text) : text;
}

function compressIPv6(text: string): string {
  // Parse via URL host canonicalisation: it emits RFC 5952 text.
  return new URL(`http://[${text}]/`).hostname.slice(1, -1);
}
