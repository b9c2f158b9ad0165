import { createHash, type Hash } from 'node:crypto';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect as tcpConnect, type LookupFunction, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import type { TrustStore } from '../tls/trust-store';
import { roundMicros } from '../../engines/icmp/stats';
import type { Answer } from '../../util/answer';
import type { CancelToken } from '../../util/cancel';
import type { HttpUrl } from '../../validation/http-url';
import { ASK_OCSP, connectionFailure, sessionFacts } from '../tls/handshake';
import { reportHeaders } from './response-headers';
import type { ExchangeFacts, HttpMethod } from './types';

export interface ExchangeOptions {
  address: string; // the IP literal the target policy checked: the connection goes there and nowhere else
  url: HttpUrl;
  method: HttpMethod;
  headers: Record<string, string>; // every header sent besides Host
  timeoutMs: number; // what is left of the check's time
  verify: boolean;
  trust: TrustStore;
  bodyMaxBytes: number;
}

// Never called for an IP literal; given so that no path of the socket code can ever ask the system's
// resolver (a name here would be a bug, and fails rather than resolves).
const NO_LOOKUP: LookupFunction = (hostname, _options, callback) => {
  const err: NodeJS.ErrnoException = new Error(`${hostname} was to be resolved by the system`);
  err.code = 'ERR_NO_SYSTEM_RESOLUTION';
  (callback as (e: Error) => void)(err);
};

// One request on one connection of its own, made here: TCP, then TLS for https (the certificate judged
// before a byte of HTTP is written), then the request through Node's http client on that socket (no
// agent, so no pool, no proxy, no cookie jar). Answers by callback once (null: the caller went away).
export function exchange(options: ExchangeOptions, cancel: CancelToken, resolve: Answer<ExchangeFacts | null>): void {
  new Exchange(options, cancel, resolve).start();
}

class Exchange {
  private readonly t0 = performance.now();
  private tConnected: number | undefined;
  private tSecured: number | undefined;
  private tSent: number | undefined;
  private tFirstByte: number | undefined;
  private socket: Socket | TLSSocket | undefined;
  private req: ClientRequest | undefined;
  private readonly facts: ExchangeFacts = { timings: {} };
  private hash: Hash | null = null;
  private bytes = 0;
  private done = false;
  private timer: NodeJS.Timeout | undefined;
  private stopListening: () => void = () => undefined;

  constructor(
    private readonly options: ExchangeOptions,
    private readonly cancel: CancelToken,
    private readonly resolve: Answer<ExchangeFacts | null>,
  ) {}

  start(): void {
    const { address, url } = this.options;
    this.timer = setTimeout(() => this.timedOut(), this.options.timeoutMs);
    this.stopListening = this.cancel.onAbort(() => this.end(null));
    const tcp = tcpConnect({ host: address, port: url.port, lookup: NO_LOOKUP });
    this.socket = tcp;
    tcp.on('error', (err: NodeJS.ErrnoException) => this.failed(err));
    tcp.once('connect', () => {
      this.tConnected = performance.now();
      this.facts.timings.connectMs = roundMicros(this.tConnected - this.t0);
      if (url.https) this.secure(tcp);
      else this.send(tcp);
    });
  }

  private secure(tcp: Socket): void {
    const { url } = this.options;
    let ocsp = false;
    // A name is the SNI and what the certificate must match; an IP literal has no SNI, and the certificate
    // must match the address (Node would otherwise check it against "localhost").
    const serverName = url.target.kind === 'name' ? { servername: url.target.value } : { host: this.options.address };
    const socket = tlsConnect({ socket: tcp, ...serverName, secureContext: this.options.trust.context, rejectUnauthorized: false, ...ASK_OCSP });
    this.socket = socket;
    socket.on('error', (err: NodeJS.ErrnoException) => this.failed(err));
    socket.on('OCSPResponse', (response: Buffer | undefined) => (ocsp = Buffer.isBuffer(response) && response.length > 0));
    socket.once('secureConnect', () => {
      this.tSecured = performance.now();
      this.facts.timings.tlsMs = roundMicros(this.tSecured - (this.tConnected as number));
      const session = sessionFacts(socket, ocsp, this.options.trust.anchors);
      this.facts.tls = session;
      // Judged before any byte of the request is written: an unverified server is told nothing.
      if (this.options.verify && !session.verified) return this.end({ ...this.facts, handshake: 'failed', code: session.verifyError ?? 'UNABLE_TO_VERIFY' });
      this.send(socket);
    });
  }

  private send(socket: Socket): void {
    const { url, method, headers } = this.options;
    const req = request({ createConnection: () => socket, method, path: url.path, setHost: false, headers: { Host: url.hostHeader, ...headers } });
    this.req = req;
    req.on('error', (err: NodeJS.ErrnoException) => this.failed(err));
    req.once('finish', () => (this.tSent = performance.now()));
    socket.once('data', () => (this.tFirstByte = performance.now()));
    req.once('response', (res) => this.answer(res));
    req.end();
  }

  private answer(res: IncomingMessage): void {
    const { headers, truncated } = reportHeaders(res.rawHeaders);
    Object.assign(this.facts, { status: res.statusCode, httpVersion: res.httpVersion, headers, ...(truncated ? { headersTruncated: true } : {}) });
    const location = res.headers.location;
    if (location !== undefined) this.facts.location = location;
    this.firstByte();
    this.hash = createHash('sha256');
    res.on('data', (chunk: Buffer) => this.read(chunk));
    res.once('end', () => this.end(this.withBody(false)));
    res.on('error', (err: NodeJS.ErrnoException) => this.failed(err));
    // A connection closed mid-body: the answer is not whole (after our own close at the cap, nothing).
    res.once('close', () => (res.complete ? undefined : this.failed(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' }))));
  }

  private read(chunk: Buffer): void {
    const room = this.options.bodyMaxBytes - this.bytes;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.hash?.update(kept);
    this.bytes += kept.length;
    // At the cap the connection is closed: the rest is never read.
    if (chunk.length > room) this.end(this.withBody(true));
  }

  private firstByte(): void {
    if (this.tSent !== undefined && this.tFirstByte !== undefined) this.facts.timings.firstByteMs = roundMicros(Math.max(0, this.tFirstByte - this.tSent));
  }

  private withBody(truncated: boolean): ExchangeFacts {
    if (this.hash === null || this.done) return this.facts;
    if (this.tFirstByte !== undefined) this.facts.timings.transferMs = roundMicros(performance.now() - this.tFirstByte);
    return { ...this.facts, body: { bytes: this.bytes, truncated, sha256: this.hash.digest('hex') } };
  }

  private timedOut(): void {
    if (this.tConnected === undefined) return this.end({ ...this.facts, connect: 'timeout' });
    if (this.options.url.https && this.tSecured === undefined) return this.end({ ...this.facts, handshake: 'timeout' });
    this.end({ ...this.withBody(true), response: 'timeout' });
  }

  private failed(err: NodeJS.ErrnoException): void {
    if (this.tConnected === undefined) {
      const { status, code } = connectionFailure(err, undefined);
      return this.end({ ...this.facts, connect: status === 'refused' || status === 'unreachable' ? status : 'error', ...(code !== undefined ? { code } : {}) });
    }
    const code = err.code ?? 'ERR_UNKNOWN';
    if (this.options.url.https && this.tSecured === undefined) return this.end({ ...this.facts, handshake: 'failed', code });
    this.end({ ...this.withBody(false), response: 'error', code });
  }

  private end(facts: ExchangeFacts | null): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.stopListening();
    this.req?.destroy();
    this.socket?.destroy();
    this.resolve(facts);
  }
}
