import { MAX_URL_LENGTH } from '../../validation/http-url';
import { ipVersionProperty, resolveMsProperty } from '../target-schema';
import { tlsResultSchema } from '../tls/schema';
import { MAX_HEADERS, MAX_HEADER_BYTES } from './response-headers';

export const HTTP_LIMITS = {
  timeoutMs: { minimum: 100, maximum: 30_000, default: 10_000 },
  followRedirects: { minimum: 0, maximum: 5, default: 0 },
} as const;

// Printable ASCII only: a header value can smuggle nothing (no CR, LF or other control).
const headerValue = { type: 'string', maxLength: 256, pattern: '^[\\x20-\\x7e]*$' } as const;

export const httpRequestSchema = {
  $id: 'HttpRequest',
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_URL_LENGTH,
      format: 'http-url',
      description: 'What to ask: an http: or https: URL, at most 2048 characters, without credentials. Its host resolves through the configured resolvers; the port policy and the target policy apply to every address connected to, redirects included.',
      examples: ['https://example.com/'],
    },
    method: { enum: ['GET', 'HEAD'], default: 'GET', description: 'GET (the body is read up to the cap and hashed, never returned) or HEAD.' },
    headers: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'The only headers a caller may add. User-Agent is appended to nettools\' own ("nettools/<version> (+<contact>) <yours>").',
      properties: {
        Accept: { ...headerValue, description: 'Sent as Accept.' },
        'Accept-Language': { ...headerValue, description: 'Sent as Accept-Language.' },
        'User-Agent': { ...headerValue, description: "Appended to nettools' own User-Agent after a space." },
      },
    },
    timeoutMs: { type: 'integer', ...HTTP_LIMITS.timeoutMs, description: 'For the whole check, every redirect included, ms.', examples: [10_000] },
    followRedirects: { type: 'integer', ...HTTP_LIMITS.followRedirects, description: 'Redirects (301, 302, 303, 307, 308) followed; each one is a new connection that passes the port policy, the target policy and the per-target connection budget.' },
    ipVersion: ipVersionProperty,
    verify: { type: 'boolean', default: true, description: 'https: check the certificate chain and name; a certificate that does not verify then ends the check as a failed handshake (reported, a 200). false: the request is made anyway and tls.verified says what was found.' },
  },
  examples: [{ url: 'https://example.com/', followRedirects: 2 }],
} as const;

const ms = { type: 'number', minimum: 0 } as const;

export const httpTimingsSchema = {
  type: 'object',
  description: "Duration of each phase, ms, each from the end of the one before; a phase the exchange did not reach is absent. Bytes received are timed from their arrival (the kernel's stamp), not from when the server got to them.",
  required: ['resolveMs', 'totalMs'],
  properties: {
    resolveMs: resolveMsProperty,
    connectMs: { ...ms, description: 'From the connect call to the TCP connection established.' },
    tlsMs: { ...ms, description: 'https: from the connection established to the TLS handshake done.' },
    firstByteMs: { ...ms, description: "From the request's last byte handed to the connection to the answer's first byte arriving; 0 when the answer arrived before that hand-over returned." },
    transferMs: { ...ms, description: "From the answer's first byte to its last byte read (or the cap)." },
    totalMs: { ...ms, description: "resolveMs plus this exchange from the connect call to its end, redirects excluded; nettools' own admission between the two is not counted (durationMs is the check's wall time)." },
  },
} as const;

const hop = {
  url: { type: 'string', description: 'The URL asked.' },
  address: { type: 'string', description: 'The address connected to, after the target policy admitted it.' },
  ipVersion: { enum: [4, 6], description: 'Address family of `address`.' },
} as const;

export const httpRedirectSchema = {
  type: 'object',
  description: 'A redirect followed: the answer that sent the check on.',
  required: ['url', 'status', 'location', 'address', 'ipVersion', 'timings'],
  properties: {
    ...hop,
    status: { type: 'integer', description: '301, 302, 303, 307 or 308.' },
    location: { type: 'string', description: 'Its Location header, resolved against `url`.' },
    timings: httpTimingsSchema,
  },
} as const;

const tlsFacts = tlsResultSchema.properties;

export const httpResultSchema = {
  $id: 'HttpResult',
  type: 'object',
  description: 'The check ran, whatever its outcome: an answer of any status, a refused connection, a failed handshake are 200s. connect, handshake or response say where an exchange without a whole answer ended.',
  required: ['url', 'finalUrl', 'method', 'address', 'ipVersion', 'port', 'timings', 'redirects', 'durationMs', 'startedAt'],
  properties: {
    url: { type: 'string', description: 'The URL as asked (WHATWG-serialised).' },
    finalUrl: { type: 'string', description: 'The URL of the last exchange (after the redirects followed).' },
    method: { enum: ['GET', 'HEAD'], description: 'The method used.' },
    address: hop.address,
    ipVersion: hop.ipVersion,
    port: { type: 'integer', minimum: 1, maximum: 65535, description: 'The port of the last exchange.' },
    connect: { enum: ['refused', 'unreachable', 'timeout', 'error'], description: 'The connection was not made: refused (a RST), unreachable (an ICMP unreachable or no route), timeout, error (named in code).' },
    handshake: { enum: ['failed', 'timeout'], description: 'https: connected, but no TLS session to use: failed (an alert, not TLS, or with verify a certificate that does not verify: code is then its verifyError) or timeout.' },
    response: { enum: ['timeout', 'error'], description: 'The request was sent, and no whole answer came: timeout (the check\'s time ran out; status and body, when present, are what came), error (a reset, a malformed answer: code).' },
    code: { type: 'string', description: 'With connect, handshake or response: the error as Node, OpenSSL or the HTTP parser names it.' },
    tls: {
      type: 'object',
      description: 'https: what the handshake showed, as the tls check reports it.',
      required: ['verified', 'protocol', 'cipher', 'ocspStapled', 'certificates'],
      properties: { verified: tlsFacts.verified, verifyError: tlsFacts.verifyError, protocol: tlsFacts.protocol, cipher: tlsFacts.cipher, alpn: tlsFacts.alpn, ocspStapled: tlsFacts.ocspStapled, certificates: tlsFacts.certificates },
    },
    status: { type: 'integer', minimum: 100, maximum: 999, description: "The answer's status code." },
    httpVersion: { type: 'string', description: 'The version the answer was given in, e.g. 1.1.' },
    headers: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: `The answer's headers, names lower-cased, at most ${MAX_HEADERS} and ${MAX_HEADER_BYTES} bytes; a name given twice has its values joined with ", "; a set-cookie value is replaced by its length ("<n> bytes").`,
    },
    headersTruncated: { type: 'boolean', description: 'Present and true when headers were left out beyond the caps.' },
    location: { type: 'string', description: 'A redirect not followed: its Location header, resolved against finalUrl.' },
    body: {
      type: 'object',
      description: 'The body as read (never returned): its size and hash; absent when no answer came.',
      required: ['bytes', 'truncated', 'sha256'],
      properties: {
        bytes: { type: 'integer', minimum: 0, description: 'Body bytes read (after any transfer coding), up to NETTOOLS_HTTP_BODY_MAX_BYTES.' },
        truncated: { type: 'boolean', description: 'The body went on past the cap: the connection was closed there.' },
        sha256: { type: 'string', description: 'SHA-256 of the bytes read, hexadecimal.' },
      },
    },
    timings: httpTimingsSchema,
    redirects: { type: 'array', maxItems: HTTP_LIMITS.followRedirects.maximum, items: httpRedirectSchema, description: 'The redirects followed, in order.' },
    durationMs: { ...ms, description: 'Time for the whole check, redirects included, ms.' },
    startedAt: { type: 'string', format: 'date-time', description: 'When the check started (UTC).' },
  },
  examples: [
    {
      url: 'http://example.com/', finalUrl: 'https://example.com/', method: 'GET', address: '192.0.2.10', ipVersion: 4, port: 443, status: 200, httpVersion: '1.1',
      headers: { 'content-type': 'text/html', 'content-length': '1256' }, body: { bytes: 1256, truncated: false, sha256: 'ea8f...' },
      tls: { verified: true, protocol: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384', ocspStapled: false, certificates: [] },
      timings: { resolveMs: 0.1, connectMs: 11.2, tlsMs: 24.0, firstByteMs: 30.5, transferMs: 0.4, totalMs: 66.3 },
      redirects: [{ url: 'http://example.com/', status: 301, location: 'https://example.com/', address: '192.0.2.10', ipVersion: 4, timings: { resolveMs: 4.2, connectMs: 11.0, firstByteMs: 12.1, transferMs: 0.1, totalMs: 27.5 } }],
      durationMs: 94.0, startedAt: '2026-11-27T12:00:00.000Z',
    },
  ],
} as const;
