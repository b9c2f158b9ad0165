import type { Address } from './address';

const HEX = '0123456789abcdef';

// The in-addr.arpa / ip6.arpa name of an address (RFC 1035 3.5, RFC 3596 2.5), from its bytes: no text
// read back. Null for an IPv6 address written with an IPv4 inside (mapped, or the deprecated
// compatible form): no router answers from one, and their names were never asked.
export function reverseDomain(address: Address): string | null {
  const b = address.bytes;
  if (address.family === 4) return `${b[3]}.${b[2]}.${b[1]}.${b[0]}.in-addr.arpa`;
  if (address.text.includes('.')) return null;
  let name = '';
  for (let i = 15; i >= 0; i--) name += `${HEX[(b[i] as number) & 0xf]}.${HEX[(b[i] as number) >> 4]}.`;
  return `${name}ip6.arpa`;
}
