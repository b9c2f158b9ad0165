import { isIPv4, isIPv6 } from 'node:net';
import type { ResolverConfig } from './types';

const ID = /^[a-z0-9][a-z0-9_-]{0,31}$/;

// `id=address[:port]`, IPv6 as `id=[address]:port` or `id=[address]`; comma separated, ids unique.
export function parseResolvers(text: string): ResolverConfig[] | string {
  const entries = text.split(',').map((s) => s.trim());
  if (entries.length === 0 || entries.some((e) => e === '')) return 'expected a comma list of id=address[:port]';
  const out: ResolverConfig[] = [];
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    if (eq < 0) return `"${entry}" is not id=address[:port]`;
    const id = entry.slice(0, eq);
    if (!ID.test(id)) return `resolver id "${id}" must be 1-32 of a-z, 0-9, "-", "_", starting with a letter or digit`;
    if (out.some((r) => r.id === id)) return `resolver id "${id}" appears twice`;
    const endpoint = parseEndpoint(entry.slice(eq + 1));
    if (typeof endpoint === 'string') return `resolver "${id}": ${endpoint}`;
    out.push({ id, ...endpoint });
  }
  return out;
}

function parseEndpoint(text: string): Omit<ResolverConfig, 'id'> | string {
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
  let port = 53;
  if (portText !== undefined) {
    if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
      return `port "${portText}" is not 1-65535`;
    }
    port = Number(portText);
  }
  return { address, port, family: isIPv6(address) ? 6 : 4 };
}
