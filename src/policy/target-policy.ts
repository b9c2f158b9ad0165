import type { Address } from '../net/address';
import { cidrContains, lastIPv4, parseCidr, parseIp, type Cidr, type IpAddress } from '../net/ip';

// Which ping targets the service refuses, after the IANA IPv4 and IPv6 Special-Purpose Address
// Registries (plus multicast, and every IPv6 block outside 2000::/3, which is not global unicast).
// The point is that a public instance cannot be used to probe the operator's own networks or to
// hit addresses that are not meant to be reachable from the Internet. When in doubt we refuse:
// text that is not an IP literal is refused too, never allowed by accident.

type Verdict = string | null; // a range name, or null for "allowed"
type Rule = [cidr: string, verdict: Verdict | ((address: IpAddress) => Verdict)];

// Rules are tried in order, so an exception (null) stands before the block that contains it.
const IPV4_RULES: Rule[] = [
  ['0.0.0.0/32', 'unspecified'],
  ['0.0.0.0/8', 'this-network'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  // PCP and TURN anycast are globally reachable services inside the IETF protocol block.
  ['192.0.0.9/32', null],
  ['192.0.0.10/32', null],
  ['192.0.0.0/24', 'ietf-protocol'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', '6to4-relay-anycast'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
];

const IPV6_RULES: Rule[] = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  // Not an IPv6 destination at all: the mapped IPv4 would have to be pinged as IPv4.
  ['::ffff:0:0/96', (a) => embedded('ipv4-mapped', lastIPv4(a)) ?? 'ipv4-mapped'],
  // Well-known NAT64 prefix: globally reachable when the IPv4 inside is.
  ['64:ff9b::/96', (a) => embedded('nat64', lastIPv4(a))],
  // Local-use NAT64 prefix (RFC 8215) is never globally reachable; name the IPv4 inside when we can.
  ['64:ff9b:1::/48', (a) => embedded('nat64', lastIPv4(a)) ?? 'nat64-local'],
  ['::/8', 'reserved'],
  ['100::/64', 'discard-only'],
  ['100:0:0:1::/64', 'dummy'],
  // Globally reachable assignments inside the IETF protocol block 2001::/23.
  ['2001:1::1/128', null],
  ['2001:1::2/128', null],
  ['2001:1::3/128', null],
  ['2001:3::/32', null],
  ['2001:4:112::/48', null],
  ['2001::/32', teredo],
  ['2001:2::/48', 'benchmarking'],
  // ORCHIDs and drone identifiers are identifiers, not routable locators (RFC 7343, RFC 9374).
  ['2001:10::/28', 'orchid'],
  ['2001:20::/28', 'orchid'],
  ['2001:30::/28', 'drone-remote-id'],
  ['2001::/23', 'ietf-protocol'],
  ['2001:db8::/32', 'documentation'],
  ['2002::/16', (a) => embedded('6to4', { family: 4, bytes: a.bytes.slice(2, 6) })],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'segment-routing'],
  ['2000::/3', null],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
  ['::/0', 'reserved'],
];

// Teredo carries the server's IPv4 in bits 32..63 and the client's, inverted, in the last 32 bits.
function teredo(address: IpAddress): Verdict {
  const server: IpAddress = { family: 4, bytes: address.bytes.slice(4, 8) };
  const client: IpAddress = { family: 4, bytes: lastIPv4(address).bytes.map((b) => b ^ 0xff) };
  return embedded('teredo', server) ?? embedded('teredo', client);
}

function embedded(form: string, inner: IpAddress): Verdict {
  const range = rangeOf(inner);
  return range === null ? null : `${form}:${range}`;
}

function compile(rules: Rule[]): Array<[Cidr, Rule[1]]> {
  return rules.map(([text, verdict]) => {
    const parsed = parseCidr(text);
    if (!parsed.ok) throw new Error(`target policy table: ${parsed.message}`);
    return [parsed.value, verdict];
  });
}

const TABLE = { 4: compile(IPV4_RULES), 6: compile(IPV6_RULES) };

function rangeOf(address: IpAddress): Verdict {
  for (const [cidr, verdict] of TABLE[address.family]) {
    if (cidrContains(cidr, address)) return typeof verdict === 'function' ? verdict(address) : verdict;
  }
  return null;
}

/** Name given to text that is not an IP literal. */
export const INVALID_ADDRESS = 'invalid';

/**
 * The name of the refused range `address` lies in (e.g. `loopback`, `private`, `ipv4-mapped:loopback`,
 * `nat64:private`, `teredo:documentation`), or null when it is an ordinary public address.
 * Brackets and any IPv6 spelling are accepted; anything that is not an IP literal yields `invalid`.
 */
export function forbiddenRange(address: string): string | null {
  const parsed = parseIp(address);
  return parsed === null ? INVALID_ADDRESS : rangeOf(parsed);
}

/** As forbiddenRange, for an address already parsed (the ping target): its bytes, not its text. */
export function forbiddenAddress(address: Address): string | null {
  return rangeOf(address);
}

export interface TargetPolicyOptions {
  /**
   * NETTOOLS_ALLOW_PRIVATE_TARGETS: lets loopback, private, link-local, CGNAT and the like through, but
   * never ALWAYS_REFUSED (and text that is no address is still refused).
   */
  allowPrivateTargets: boolean;
}

/**
 * Ranges refused even when private targets are allowed: one echo to a multicast or broadcast address
 * can draw replies from many hosts, and an unspecified address means "this host" or nothing. Embedded
 * forms (`ipv4-mapped:multicast`, `6to4:broadcast`, ...) are refused alike.
 */
export const ALWAYS_REFUSED: ReadonlySet<string> = new Set(['multicast', 'broadcast', 'unspecified', 'this-network']);

function alwaysRefused(range: string): boolean {
  return ALWAYS_REFUSED.has(range.slice(range.lastIndexOf(':') + 1));
}

/** The check the ping tool runs on every resolved address: a refused range's name, or null to go ahead. */
// Checks a resolved target against the operator's target policy; returns the refused range's name.
export type TargetCheck = (address: Address) => string | null;

export function createTargetCheck(options: TargetPolicyOptions): TargetCheck {
  if (!options.allowPrivateTargets) return forbiddenAddress;
  return (address) => {
    const range = rangeOf(address);
    return range !== null && alwaysRefused(range) ? range : null;
  };
}
