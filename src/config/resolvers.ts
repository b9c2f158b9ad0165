import { isIP, isIPv4, isIPv6 } from 'node:net';
import type { ResolverConfig } from './types';

const ID = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const TLS = 'tls://';
const DOT_PORT = 853;

// `id=address[:port]`, IPv6 as `id=[address]:port` or `id=[address]`; a DoT resolver as
// `id=tls://name@address[:port]` (port 853 unless given); comma separated, ids unique.
export function parseResolvers(text: string): ResolverConfig[] | string {
  const entries = text.split(',').map((s) => s.trim());
  if (entries.length === 0 || entries.some((e) => e === '')) return 'expected a comma list of id=address[:port] or id=tls://name@address[:port]';
  const out: ResolverConfig[] = [];
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    if (eq < 0) return `"${entry}" is not id=address[:port]`;
    const id = entry.slice(0, eq);
    if (!ID.test(id)) return `resolver id "${id}" must be 1-32 of a-z, 0-9, "-", "_", starting with a letter or digit`;
    if (out.some((r) => r.id === id)) return `resolver id "${id}" appears twice`;
    const value = entry.slice(eq + 1);
    const endpoint = value.toLowerCase().startsWith(TLS) ? parseTls(value.slice(TLS.length)) : parseEndpoint(value, 53);
    if (typeof endpoint === 'string') return `resolver "${id}": ${endpoint}`;
    out.push({ id, ...endpoint });
  }
  return out;
}

// `name@address[:port]`: the name is what the certificate must be valid for, so it is required.
function parseTls(text: string): Omit<ResolverConfig, 'id'> | string {
  const at = text.lastIndexOf('@');
  if (at < 0) return `"tls://${text}" needs the name its certificate is checked against: tls://name@address[:port]`;
  const name = hostName(text.slice(0, at));
  if (name === null) return `"${text.slice(0, at)}" is not a host name (the name the resolver's certificate is checked against)`;
  const endpoint = parseEndpoint(text.slice(at + 1), DOT_PORT);
  return typeof endpoint === 'string' ? endpoint : { ...endpoint, tlsName: name };
}

// A DNS host name, lowercase, without its final dot; null for anything else, an IP address included.
function hostName(text: string): string | null {
  const name = text.toLowerCase().replace(/\.$/, '');
  if (name === '' || name.length > 253 || isIP(name) !== 0) return null;
  return name.split('.').every((label) => LABEL.test(label)) ? name : null;
}

function parseEndpoint(text: string, defaultPort: number): Omit<ResolverConfig, 'id'> | string {
  let address: string;
  let portText: string | undefined;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return `"${text}" has no closing bracket`;
    address = text.slice(1, close);
    const rest = text.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) return `"${text}" has junk after the bracket`;
    portText = rest === '' ? undefined : rest.slice(1);
    if (!isIPv6(address)) return `"${address}" is not an IPv6 address`;
  } else if (isIPv6(text)) {
    address = text;
  } else {
    const colon = text.lastIndexOf(':');
    address = colon < 0 ? text : text.slice(0, colon);
    portText = colon < 0 ? undefined : text.slice(colon + 1);
    if (!isIPv4(address)) return `"${address}" is not an IP address (host names are not accepted here)`;
  }
  let port = defaultPort;
  if (portText !== undefined) {
    if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
      return `port "${portText}" is not 1-65535`;
    }
    port = Number(portText);
  }
  return { address, port, family: isIPv6(address) ? 6 : 4 };
}
