import { parseHost, type HostTarget } from './names';

// What the http check takes of a URL: parsed once by WHATWG URL rules (as a browser would read it), then
// the host by the same rules as every tool's `host` (an IDN in its ASCII form, IP literals bare).
export interface HttpUrl {
  href: string; // the URL as WHATWG serialises it (fragment dropped: it is never sent)
  https: boolean;
  target: HostTarget;
  port: number;
  path: string; // path and query, what the request line carries
  hostHeader: string; // host[:port] as the Host header carries it
}

export const MAX_URL_LENGTH = 2048;

// The URL, or why it cannot be checked: another scheme, credentials (never sent anywhere), a host that
// is no host name or address.
export function parseHttpUrl(text: string, base?: string): HttpUrl | string {
  let url: URL;
  try {
    url = base === undefined ? new URL(text) : new URL(text, base);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http: or https: URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  url.hash = '';
  if (url.href.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  const target = parseHost(url.hostname);
  if (target === null) return 'must have a host name or an IP literal as its host';
  const https = url.protocol === 'https:';
  const port = url.port === '' ? (https ? 443 : 80) : Number(url.port);
  return { href: url.href, https, target, port, path: `${url.pathname}${url.search}`, hostHeader: url.host };
}

export const HTTP_URL_MESSAGE = 'must be an http: or https: URL of at most 2048 characters, with a host name or IP literal and no credentials';
