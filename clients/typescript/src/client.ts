import { failed, MAX_BODY_BYTES, readAnswer, type Answer } from './answer.js';
import { NettoolsError } from './error.js';
import type { RateLimitInfo } from './rate-limit.js';
import { openStream, readEvents } from './stream.js';
import type {
  At,
  DnsEvent,
  DnsLocated,
  DnsLocatedEvent,
  DnsRequest,
  DnsResult,
  Here,
  Limits,
  Location,
  MtrEvent,
  MtrLocated,
  MtrLocatedEvent,
  MtrRequest,
  MtrResult,
  PingEvent,
  PingLocated,
  PingLocatedEvent,
  PingRequest,
  PingResult,
  ProblemCode,
  TcpEvent,
  TcpLocated,
  TcpLocatedEvent,
  TcpRequest,
  TcpResult,
  TlsEvent,
  TlsLocated,
  TlsLocatedEvent,
  TlsRequest,
  TlsResult,
  HttpEvent,
  HttpLocated,
  HttpLocatedEvent,
  HttpRequest,
  HttpResult,
  TracerouteEvent,
  TracerouteLocated,
  TracerouteLocatedEvent,
  TracerouteRequest,
  TracerouteResult,
} from './types.js';
import { wait } from './wait.js';

// Good manners on 429 and 503: resend once `Retry-After` has passed, a bounded number of times, and
// never wait longer than `maxWaitSeconds` at once. A refusal without Retry-After (too many requests in
// flight, engine unavailable) is returned at once: waiting blindly would not help.
export interface RetryOptions {
  maxRetries?: number | undefined; // resends per call; 2 unless set
  maxWaitSeconds?: number | undefined; // a longer Retry-After is returned to the caller instead; 60 unless set
}

export interface WaitNotice {
  seconds: number;
  attempt: number; // 1 for the first resend
  status: number;
  code: ProblemCode;
}

export interface ClientOptions {
  baseUrl: string; // e.g. https://nettools.example; a path prefix is kept
  apiKey?: string | undefined; // sent as `Authorization: Bearer ...`
  retry?: RetryOptions | false | undefined; // false: never wait, return the 429 or 503 as it came
  onWait?: ((notice: WaitNotice) => void) | undefined; // told before each wait
  fetch?: typeof globalThis.fetch | undefined; // the global fetch unless given
  maxBodyBytes?: number | undefined; // the most a JSON answer or one stream line may hold; 4 MiB unless set
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

const DEFAULT_RETRY = { maxRetries: 2, maxWaitSeconds: 60 };
const JSON_ACCEPT = 'application/json, application/problem+json';
// Only NDJSON is asked for: a stream, or (refused before the start) a problem; never the JSON form.
const STREAM_ACCEPT = 'application/x-ndjson, application/problem+json';

type Reader<T> = (response: Response, waits: number[], limit: number) => Promise<Answer<T>>;

export class NettoolsClient {
  private readonly base: string;
  private readonly retry: { maxRetries: number; maxWaitSeconds: number } | null;
  // The RateLimit fields of the last answer that carried any.
  lastRateLimit: RateLimitInfo = {};

  constructor(private readonly options: ClientOptions) {
    this.base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
    const retry = options.retry === false ? null : (options.retry ?? {});
    this.retry = retry === null ? null : { maxRetries: retry.maxRetries ?? DEFAULT_RETRY.maxRetries, maxWaitSeconds: retry.maxWaitSeconds ?? DEFAULT_RETRY.maxWaitSeconds };
  }

  // With `locations` (names, "all" or a number; see locations()), each call answers the Located form
  // instead: every location's own body or problem, by name, and the verdict over them. The overloads
  // pick the answer's type from the request: a literal with `locations` gets PingLocated, one without
  // PingResult, a request whose `locations` may or may not be there the union of both.
  ping(request: At<PingRequest>, call?: CallOptions): Promise<Answer<PingLocated>>;
  ping(request: Here<PingRequest>, call?: CallOptions): Promise<Answer<PingResult>>;
  ping(request: PingRequest, call?: CallOptions): Promise<Answer<PingResult | PingLocated>>;
  ping(request: PingRequest, call: CallOptions = {}): Promise<Answer<PingResult | PingLocated>> {
    return this.send('POST', 'api/tools/ping', request, call);
  }

  dns(request: At<DnsRequest>, call?: CallOptions): Promise<Answer<DnsLocated>>;
  dns(request: Here<DnsRequest>, call?: CallOptions): Promise<Answer<DnsResult>>;
  dns(request: DnsRequest, call?: CallOptions): Promise<Answer<DnsResult | DnsLocated>>;
  dns(request: DnsRequest, call: CallOptions = {}): Promise<Answer<DnsResult | DnsLocated>> {
    return this.send('POST', 'api/tools/dns', request, call);
  }

  // The path to a host, hop by hop. A destination that never answers is still a value
  // (destinationReached false), not an error.
  traceroute(request: At<TracerouteRequest>, call?: CallOptions): Promise<Answer<TracerouteLocated>>;
  traceroute(request: Here<TracerouteRequest>, call?: CallOptions): Promise<Answer<TracerouteResult>>;
  traceroute(request: TracerouteRequest, call?: CallOptions): Promise<Answer<TracerouteResult | TracerouteLocated>>;
  traceroute(request: TracerouteRequest, call: CallOptions = {}): Promise<Answer<TracerouteResult | TracerouteLocated>> {
    return this.send('POST', 'api/tools/traceroute', request, call);
  }

  // Every hop of the path probed again in cycles, with mtr's figures per hop (at most 10 cycles here;
  // mtrStream() takes up to 3600).
  mtr(request: At<MtrRequest>, call?: CallOptions): Promise<Answer<MtrLocated>>;
  mtr(request: Here<MtrRequest>, call?: CallOptions): Promise<Answer<MtrResult>>;
  mtr(request: MtrRequest, call?: CallOptions): Promise<Answer<MtrResult | MtrLocated>>;
  mtr(request: MtrRequest, call: CallOptions = {}): Promise<Answer<MtrResult | MtrLocated>> {
    return this.send('POST', 'api/tools/mtr', request, call);
  }

  // Connections to one port of a host, each timed (a tcping). A closed port is still a value
  // (connected false), not an error; a port below 1024 but 80 and 443 is refused unless the server lists it.
  tcp(request: At<TcpRequest>, call?: CallOptions): Promise<Answer<TcpLocated>>;
  tcp(request: Here<TcpRequest>, call?: CallOptions): Promise<Answer<TcpResult>>;
  tcp(request: TcpRequest, call?: CallOptions): Promise<Answer<TcpResult | TcpLocated>>;
  tcp(request: TcpRequest, call: CallOptions = {}): Promise<Answer<TcpResult | TcpLocated>> {
    return this.send('POST', 'api/tools/tcp', request, call);
  }

  // One TLS handshake with one port of a host: protocol, cipher, the certificate chain and whether it
  // verifies. A certificate that does not verify, or a port that refuses, is still a value (see status).
  tls(request: At<TlsRequest>, call?: CallOptions): Promise<Answer<TlsLocated>>;
  tls(request: Here<TlsRequest>, call?: CallOptions): Promise<Answer<TlsResult>>;
  tls(request: TlsRequest, call?: CallOptions): Promise<Answer<TlsResult | TlsLocated>>;
  tls(request: TlsRequest, call: CallOptions = {}): Promise<Answer<TlsResult | TlsLocated>> {
    return this.send('POST', 'api/tools/tls', request, call);
  }

  // One HTTP request to a URL: its status, headers, body size and hash, each phase's time, the TLS facts
  // for https, and the redirects followed. Any status, a refused connection or a failed handshake is a
  // value (see connect, handshake, response); a redirect to a refused address is a problem.
  http(request: At<HttpRequest>, call?: CallOptions): Promise<Answer<HttpLocated>>;
  http(request: Here<HttpRequest>, call?: CallOptions): Promise<Answer<HttpResult>>;
  http(request: HttpRequest, call?: CallOptions): Promise<Answer<HttpResult | HttpLocated>>;
  http(request: HttpRequest, call: CallOptions = {}): Promise<Answer<HttpResult | HttpLocated>> {
    return this.send('POST', 'api/tools/http', request, call);
  }

  // The caller's plan and budget; spends no token.
  limits(call: CallOptions = {}): Promise<Answer<Limits>> {
    return this.send<Limits>('GET', 'api/limits', undefined, call);
  }

  // Where measurements can run: this server first, then each agent connected to it; spends no token.
  locations(call: CallOptions = {}): Promise<Answer<Location[]>> {
    return this.send<Location[]>('GET', 'api/locations', undefined, call);
  }

  // The streamed forms: `start`, each result as it arrives (ping `reply`, dns `answer`, traceroute `hop`
  // in TTL order, mtr `cycle`, tcp `attempt`, http `redirect`; tls has none), then `summary`, whose data is what ping() / dns() / traceroute() / mtr() answer. The request
  // goes out on the first next(); a refusal (after the same Retry-After waits as the plain calls), a
  // `problem` event and a broken stream are thrown as NettoolsError. Leaving the loop early aborts the
  // request, and the server stops measuring.
  // With `locations`, every location's events come as they arrive, each data with its `location`; a
  // location's `problem` is yielded (the others go on), and the stream ends with the `locations` event,
  // whose data is what the JSON call answers.
  pingStream(request: At<PingRequest>, call?: CallOptions): AsyncGenerator<PingLocatedEvent, void, undefined>;
  pingStream(request: Here<PingRequest>, call?: CallOptions): AsyncGenerator<PingEvent, void, undefined>;
  pingStream(request: PingRequest, call?: CallOptions): AsyncGenerator<PingEvent | PingLocatedEvent, void, undefined>;
  pingStream(request: PingRequest, call: CallOptions = {}): AsyncGenerator<PingEvent | PingLocatedEvent, void, undefined> {
    return this.stream('api/tools/ping', request, call);
  }

  dnsStream(request: At<DnsRequest>, call?: CallOptions): AsyncGenerator<DnsLocatedEvent, void, undefined>;
  dnsStream(request: Here<DnsRequest>, call?: CallOptions): AsyncGenerator<DnsEvent, void, undefined>;
  dnsStream(request: DnsRequest, call?: CallOptions): AsyncGenerator<DnsEvent | DnsLocatedEvent, void, undefined>;
  dnsStream(request: DnsRequest, call: CallOptions = {}): AsyncGenerator<DnsEvent | DnsLocatedEvent, void, undefined> {
    return this.stream('api/tools/dns', request, call);
  }

  tracerouteStream(request: At<TracerouteRequest>, call?: CallOptions): AsyncGenerator<TracerouteLocatedEvent, void, undefined>;
  tracerouteStream(request: Here<TracerouteRequest>, call?: CallOptions): AsyncGenerator<TracerouteEvent, void, undefined>;
  tracerouteStream(request: TracerouteRequest, call?: CallOptions): AsyncGenerator<TracerouteEvent | TracerouteLocatedEvent, void, undefined>;
  tracerouteStream(request: TracerouteRequest, call: CallOptions = {}): AsyncGenerator<TracerouteEvent | TracerouteLocatedEvent, void, undefined> {
    return this.stream('api/tools/traceroute', request, call);
  }

  mtrStream(request: At<MtrRequest>, call?: CallOptions): AsyncGenerator<MtrLocatedEvent, void, undefined>;
  mtrStream(request: Here<MtrRequest>, call?: CallOptions): AsyncGenerator<MtrEvent, void, undefined>;
  mtrStream(request: MtrRequest, call?: CallOptions): AsyncGenerator<MtrEvent | MtrLocatedEvent, void, undefined>;
  mtrStream(request: MtrRequest, call: CallOptions = {}): AsyncGenerator<MtrEvent | MtrLocatedEvent, void, undefined> {
    return this.stream('api/tools/mtr', request, call);
  }

  tcpStream(request: At<TcpRequest>, call?: CallOptions): AsyncGenerator<TcpLocatedEvent, void, undefined>;
  tcpStream(request: Here<TcpRequest>, call?: CallOptions): AsyncGenerator<TcpEvent, void, undefined>;
  tcpStream(request: TcpRequest, call?: CallOptions): AsyncGenerator<TcpEvent | TcpLocatedEvent, void, undefined>;
  tcpStream(request: TcpRequest, call: CallOptions = {}): AsyncGenerator<TcpEvent | TcpLocatedEvent, void, undefined> {
    return this.stream('api/tools/tcp', request, call);
  }

  // tls streamed: `start` (the address connected to and the settings), then `summary`, the JSON body.
  tlsStream(request: At<TlsRequest>, call?: CallOptions): AsyncGenerator<TlsLocatedEvent, void, undefined>;
  tlsStream(request: Here<TlsRequest>, call?: CallOptions): AsyncGenerator<TlsEvent, void, undefined>;
  tlsStream(request: TlsRequest, call?: CallOptions): AsyncGenerator<TlsEvent | TlsLocatedEvent, void, undefined>;
  tlsStream(request: TlsRequest, call: CallOptions = {}): AsyncGenerator<TlsEvent | TlsLocatedEvent, void, undefined> {
    return this.stream('api/tools/tls', request, call);
  }

  // http streamed: `start` (the first address and the settings), a `redirect` per redirect followed, then
  // `summary`, the JSON body.
  httpStream(request: At<HttpRequest>, call?: CallOptions): AsyncGenerator<HttpLocatedEvent, void, undefined>;
  httpStream(request: Here<HttpRequest>, call?: CallOptions): AsyncGenerator<HttpEvent, void, undefined>;
  httpStream(request: HttpRequest, call?: CallOptions): AsyncGenerator<HttpEvent | HttpLocatedEvent, void, undefined>;
  httpStream(request: HttpRequest, call: CallOptions = {}): AsyncGenerator<HttpEvent | HttpLocatedEvent, void, undefined> {
    return this.stream('api/tools/http', request, call);
  }

  private async *stream<E extends { event: string; data: unknown }>(path: string, body: { locations?: unknown }, call: CallOptions): AsyncGenerator<E, void, undefined> {
    // Our own controller, so that leaving the loop can abort the request whatever the caller's signal.
    const own = new AbortController();
    const stop = () => own.abort();
    if (call.signal?.aborted) stop();
    call.signal?.addEventListener('abort', stop, { once: true });
    try {
      const answer = await this.send('POST', path, body, { signal: own.signal }, STREAM_ACCEPT, openStream);
      if (!answer.ok) throw new NettoolsError(answer.error, answer.rateLimit, answer.requestId, answer.waits);
      yield* readEvents<E>(answer.value, answer, own.signal, this.options.maxBodyBytes ?? MAX_BODY_BYTES, body.locations !== undefined);
    } finally {
      call.signal?.removeEventListener('abort', stop);
      own.abort();
    }
  }

  private async send<T>(method: string, path: string, body: unknown, call: CallOptions, accept = JSON_ACCEPT, read: Reader<T> = readAnswer): Promise<Answer<T>> {
    const waits: number[] = [];
    for (;;) {
      const answer = await this.once<T>(method, path, body, call, waits, accept, read);
      if (Object.keys(answer.rateLimit).length > 0) this.lastRateLimit = answer.rateLimit;
      const seconds = this.waitFor(answer);
      if (seconds === null) return answer;
      if (answer.ok || answer.error.kind !== 'problem') return answer;
      this.options.onWait?.({ seconds, attempt: waits.length + 1, status: answer.error.status, code: answer.error.problem.code });
      if (!(await wait(seconds, call.signal))) return failed({ kind: 'aborted', message: 'aborted while waiting to resend' }, waits);
      waits.push(seconds);
    }
  }

  // Seconds to wait before resending this answer, or null to return it.
  private waitFor(answer: Answer<unknown>): number | null {
    if (answer.ok || answer.error.kind !== 'problem' || this.retry === null) return null;
    if (answer.error.status !== 429 && answer.error.status !== 503) return null;
    const seconds = answer.rateLimit.retryAfterSeconds;
    if (seconds === undefined || seconds > this.retry.maxWaitSeconds || answer.waits.length >= this.retry.maxRetries) return null;
    return seconds;
  }

  private async once<T>(method: string, path: string, body: unknown, call: CallOptions, waits: number[], accept: string, read: Reader<T>): Promise<Answer<T>> {
    const headers: Record<string, string> = { accept };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.options.apiKey !== undefined) headers['authorization'] = `Bearer ${this.options.apiKey}`;
    const init: RequestInit = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), ...(call.signal ? { signal: call.signal } : {}) };
    let response: Response;
    try {
      // Called as a plain function: a browser's fetch refuses to run with another object as `this`.
      response = await (this.options.fetch ?? globalThis.fetch)(new URL(path, this.base), init);
    } catch (err) {
      const aborted = call.signal?.aborted === true;
      return failed({ kind: aborted ? 'aborted' : 'network', message: describe(err) }, [...waits]);
    }
    try {
      return await read(response, [...waits], this.options.maxBodyBytes ?? MAX_BODY_BYTES);
    } catch (err) {
      // The head came, the body broke off (or the caller aborted while it came): no answer either way.
      const aborted = call.signal?.aborted === true;
      return failed({ kind: aborted ? 'aborted' : 'network', message: `the answer broke off: ${describe(err)}` }, [...waits]);
    }
  }
}

// fetch's own message is "fetch failed"; the cause says what really happened (ECONNREFUSED and such).
function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string; code?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message ?? 'fetch failed'}: ${cause}` : (e.message ?? String(err));
}
