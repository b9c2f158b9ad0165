import type { ExchangeResult, HttpExchanger } from '../../engines/http/exchanger';
import { roundMicros } from '../../engines/icmp/stats';
import type { Address } from '../../net/address';
import type { Answer } from '../../util/answer';
import type { CancelToken } from '../../util/cancel';
import type { HttpUrl } from '../../validation/http-url';
import { derChainFacts } from '../tls/certificates';
import type { SessionFacts } from '../tls/types';
import { reportHeaders } from './response-headers';
import type { ExchangeFacts, HttpMethod } from './types';

export interface ExchangeOptions {
  address: Address; // what the target policy checked: the connection goes there and nowhere else
  url: HttpUrl;
  method: HttpMethod;
  headers: Record<string, string>; // every header sent besides Host
  timeoutMs: number; // what is left of the check's time
  verify: boolean;
  anchors: ReadonlySet<string>; // the trust store's, to mark the anchor in the chain reported
  bodyMaxBytes: number;
}

// What one exchange showed, and its own time: connect() to the last byte (or to where it ended).
export interface Exchanged {
  facts: ExchangeFacts;
  elapsedMs: number;
}

// One request on one connection of its own, made by the HTTP engine: TCP to the admitted address, TLS for
// https (the certificate judged before a byte of HTTP is written), the request, the answer read and its
// body hashed up to the cap. No pool, proxy, cookie jar or system resolver is anywhere on that path.
// Answers by callback once (null: the caller went away first).
export function exchange(engine: HttpExchanger, options: ExchangeOptions, cancel: CancelToken, resolve: Answer<Exchanged | null>): void {
  const { address, url } = options;
  let stopListening = (): void => undefined;
  const stop = engine.exchange(
    {
      address,
      port: url.port,
      timeoutMs: options.timeoutMs,
      tls: url.https,
      // A name is the SNI and what the certificate must match; an IP literal has no SNI, and the
      // certificate must hold the address.
      serverName: url.https && url.target.kind === 'name' ? url.target.value : '',
      verify: options.verify,
      request: requestHead(options),
      headRequest: options.method === 'HEAD',
      bodyMaxBytes: options.bodyMaxBytes,
    },
    (result) => {
      stopListening();
      resolve({ facts: factsOf(result, options.anchors), elapsedMs: result.totalNs / 1e6 });
    },
  );
  stopListening = cancel.onAbort(() => {
    stop();
    resolve(null);
  });
}

// What goes on the wire: the request line, Host, then the headers in the order given.
export function requestHead(options: Pick<ExchangeOptions, 'method' | 'url' | 'headers'>): string {
  let head = `${options.method} ${options.url.path} HTTP/1.1\r\nHost: ${options.url.hostHeader}\r\n`;
  for (const [name, value] of Object.entries(options.headers)) head += `${name}: ${value}\r\n`;
  return `${head}\r\n`;
}

function ms(ns: number | undefined): number | undefined {
  return ns === undefined ? undefined : roundMicros(ns / 1e6);
}

export function factsOf(r: ExchangeResult, anchors: ReadonlySet<string>): ExchangeFacts {
  const timings: ExchangeFacts['timings'] = {};
  const phases = { connectMs: ms(r.connectNs), tlsMs: ms(r.tlsNs), firstByteMs: ms(r.firstByteNs), transferMs: ms(r.transferNs) };
  for (const [name, value] of Object.entries(phases)) if (value !== undefined) timings[name as keyof typeof phases] = value;
  const facts: ExchangeFacts = { ...ended(r), timings };
  if (r.tls !== undefined) facts.tls = sessionOf(r.tls, anchors);
  if (r.status !== undefined && r.rawHeaders !== undefined) {
    const { headers, truncated } = reportHeaders(r.rawHeaders);
    Object.assign(facts, { status: r.status, httpVersion: r.httpVersion, headers, ...(truncated || (r.headersDropped ?? 0) > 0 ? { headersTruncated: true } : {}) });
    const location = firstValue(r.rawHeaders, 'location');
    if (location !== undefined) facts.location = location;
  }
  if (r.body !== undefined) facts.body = r.body;
  return facts;
}

// Where an exchange without a whole answer stopped, and the code of why (none for a timeout).
function ended(r: ExchangeResult): Pick<ExchangeFacts, 'connect' | 'handshake' | 'response' | 'code'> {
  const code = r.failure !== 'timeout' && r.code !== undefined ? { code: r.code } : {};
  switch (r.stage) {
    case 'connect':
      return { connect: r.failure === 'refused' || r.failure === 'unreachable' || r.failure === 'timeout' ? r.failure : 'error', ...code };
    case 'handshake':
      return { handshake: r.failure === 'timeout' ? 'timeout' : 'failed', ...code };
    case 'response':
      return { response: r.failure === 'timeout' ? 'timeout' : 'error', ...code };
    default:
      return {};
  }
}

function sessionOf(tls: NonNullable<ExchangeResult['tls']>, anchors: ReadonlySet<string>): SessionFacts {
  return {
    verified: tls.verified,
    ...(tls.verifyError !== undefined ? { verifyError: tls.verifyError } : {}),
    protocol: tls.protocol,
    cipher: tls.cipher,
    ocspStapled: tls.ocspStapled,
    certificates: derChainFacts(tls.chain, Date.now(), anchors),
  };
}

// The first value of a header (names compared without case), as Node's parsed headers keep it.
function firstValue(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) if ((raw[i] as string).toLowerCase() === name) return raw[i + 1];
  return undefined;
}
