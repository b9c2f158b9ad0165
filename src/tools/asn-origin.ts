// The origin AS of an address as an IP-to-ASN zone tells it (Team Cymru's layout): the question's name,
// from the address's bytes, and the TXT answer read defensively, since it comes from a zone we do not run.
import type { Address } from '../net/address';
import { cidrContains, formatIp, parseCidr } from '../net/ip';

export interface Asn {
  number: number;
  prefix: string;
}

export interface AsnZones {
  v4: string; // NETTOOLS_ASN_ZONE_V4
  v6: string; // NETTOOLS_ASN_ZONE_V6
}

const HEX = '0123456789abcdef';
const MAX_ASN = 4_294_967_295; // 32-bit AS numbers (RFC 6793)

// Reversed octets under the v4 zone (1.2.3.4 -> 4.3.2.1.<zone>), reversed nibbles under the v6 zone.
// Null for an IPv6 address with an IPv4 inside (mapped, compatible): no router answers from one.
export function asnQueryName(address: Address, zones: AsnZones): string | null {
  const b = address.bytes;
  if (address.family === 4) return `${b[3]}.${b[2]}.${b[1]}.${b[0]}.${zones.v4}`;
  if (address.text.includes('.')) return null;
  let name = '';
  for (let i = 15; i >= 0; i--) name += `${HEX[(b[i] as number) & 0xf]}.${HEX[(b[i] as number) >> 4]}.`;
  return `${name}${zones.v6}`;
}

// A prefix as the zone wrote it, checked by the one CIDR parser and shown in canonical form.
function prefixOf(text: string): string | null {
  if (!/^[0-9a-f.:]{2,45}\/\d{1,3}$/i.test(text)) return null;
  const parsed = parseCidr(text);
  return parsed.ok ? `${formatIp(parsed.value)}/${parsed.value.prefix}` : null;
}

// `"13335 | 104.16.0.0/13 | US | arin | 2014-03-28"`: the first AS number (an address announced by
// several lists them all, space-separated) and the prefix. Anything else is no answer: null.
export function parseOriginTxt(text: string): Asn | null {
  const fields = text.split('|').map((f) => f.trim());
  if (fields.length < 2) return null;
  const first = (fields[0] as string).split(/\s+/)[0] as string;
  if (!/^\d{1,10}$/.test(first)) return null;
  const number = Number(first);
  const prefix = prefixOf(fields[1] as string);
  if (number < 1 || number > MAX_ASN || prefix === null) return null;
  return { number, prefix };
}

// Whether the answer is about the address asked: a prefix that does not hold it is another's answer.
export function covers(asn: Asn, address: Address): boolean {
  const parsed = parseCidr(asn.prefix);
  return parsed.ok && parsed.value.family === address.family && cidrContains(parsed.value, address);
}
