import { isIPv4, isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';
import { parseAddress, type Address } from '../net/address';
import { reverseDomain } from '../net/reverse-name';
import { plainAsciiName } from './plain-name';

// Characters that mean the caller sent a URL, a port, a path, or something worse instead of a host.
const FORBIDDEN = /[\s\x00-\x1f\x7f/\\?#@%:[\]<>^|'"`,;*!$&()+={}~]/;
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
// DNS names in the wild also carry underscores (_dmarc, _domainkey): allowed for dns, not for hosts.
const DNS_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

export type NameKind = 'hostname' | 'domain';

// A Unicode or ASCII name in its ASCII (punycode) form, lowercase, without the trailing dot; null when invalid.
export function toAsciiName(input: string, kind: NameKind): string | null {
  const plain = plainAsciiName(input, kind === 'domain');
  return plain !== undefined ? plain : convertedName(input, kind);
}

// The full path, through WHATWG's domainToASCII (UTS #46): any name a caller may send.
export function convertedName(input: string, kind: NameKind): string | null {
  if (input.length === 0 || input.length > 254 || FORBIDDEN.test(input)) return null;
  const name = input.endsWith('.') ? input.slice(0, -1) : input;
  if (name.length === 0 || name.startsWith('.') || name.includes('..')) return null;
  // WHATWG's domainToASCII reads all-numeric names as IPv4 ("1.2.3" -> "1.2.0.3"): refuse them before it does.
  const labels = name.split('.');
  if (/^\d+$/.test(labels[labels.length - 1] as string)) return null;
  const ascii = domainToASCII(name);
  if (ascii === '' || ascii.length > 253) return null;
  // What the conversion made of it is what gets asked or pinged, so that is what is checked: other IPv4
  // notations (0x7f000001, 0177.0.0.1, 127.1, fullwidth digits, ideographic dots) come out as dotted
  // quads here, and a name that is really an address is not a name.
  if (isIPv4(ascii)) return null;
  const rule = kind === 'hostname' ? LDH_LABEL : DNS_LABEL;
  return ascii.split('.').every((l) => rule.test(l)) ? ascii : null;
}

// The parsed `host`: a name, or an IP literal with its value (made once here, carried to the engine).
// `value` is the host as the response shows it: the ASCII name, or the literal bare and lowercase.
// `kind` says how the literal was spelled: `::ffff:a.b.c.d` is an 'ipv6' whose address is IPv4.
export type HostTarget = { kind: 'name'; value: string } | { kind: 'ipv4' | 'ipv6'; value: string; address: Address };

export function parseHost(input: string): HostTarget | null {
  // Zone ids ("fe80::1%eth0") name an interface of this server: not something a remote caller may pick;
  // parseAddress refuses them, and "[1.2.3.4]".
  const address = parseAddress(input);
  if (address !== null) {
    const v6 = input.includes(':');
    const value = !v6 ? input : (input.startsWith('[') ? input.slice(1, -1) : input).toLowerCase();
    return { kind: v6 ? 'ipv6' : 'ipv4', value, address };
  }
  if (input.startsWith('[')) return null;
  const name = toAsciiName(input, 'hostname');
  return name === null ? null : { kind: 'name', value: name };
}

export function parseDomain(input: string): string | null {
  // Every IPv6 literal has a colon: most names never reach the IPv6 parser.
  if (isIPv4(input) || (input.includes(':') && isIPv6(input.replace(/^\[|\]$/g, '')))) return null;
  return toAsciiName(input, 'domain');
}

// The dns tool's `domain`: a name, or an IP literal, which asks PTR of its reverse name (in-addr.arpa,
// ip6.arpa). `value` is what the response shows as the domain: the ASCII name, or the literal bare and
// lowercase. An IPv4-mapped IPv6 literal is its IPv4 address (parseAddress), so it asks in-addr.arpa.
export type DnsTarget = { kind: 'name'; value: string } | { kind: 'ip'; value: string; reverse: string };

export function parseDnsTarget(input: string): DnsTarget | null {
  const address = parseAddress(input);
  if (address === null) {
    const name = parseDomain(input);
    return name === null ? null : { kind: 'name', value: name };
  }
  const reverse = reverseDomain(address);
  if (reverse === null) return null;
  const value = input.includes(':') ? (input.startsWith('[') ? input.slice(1, -1) : input).toLowerCase() : input;
  return { kind: 'ip', value, reverse };
}
