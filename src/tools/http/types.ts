import type { HostTarget } from '../../validation/names';
import type { SessionFacts } from '../tls/types';

export type HttpMethod = 'GET' | 'HEAD';

// The headers a caller may add; `User-Agent` is a suffix to nettools' own.
export interface CallerHeaders {
  Accept?: string;
  'Accept-Language'?: string;
  'User-Agent'?: string;
}

// An http request after validation, defaults and normalisation. `host` and `target` are the URL's host,
// parsed once (null when the URL's host is no host name or address: the check refuses it).
export interface HttpRequest {
  url: string;
  host: string;
  target: HostTarget;
  method: HttpMethod;
  headers: CallerHeaders;
  timeoutMs: number;
  followRedirects: number;
  ipVersion?: 4 | 6;
  verify: boolean;
}

// How far one exchange got when it did not get an answer: the connection, the TLS handshake (a
// certificate that does not verify, with verify on, is a failed handshake), or the answer itself.
export type ConnectFailure = 'refused' | 'unreachable' | 'timeout' | 'error';
export type HandshakeFailure = 'failed' | 'timeout';
export type ResponseFailure = 'timeout' | 'error';

// Durations of each phase, ms, each from the end of the one before (as blackbox_exporter's phases).
export interface HttpTimings {
  resolveMs: number;
  connectMs?: number;
  tlsMs?: number;
  firstByteMs?: number;
  transferMs?: number;
  totalMs: number;
}

export interface BodyFacts {
  bytes: number;
  truncated: boolean;
  sha256: string;
}

// What one request on one connection showed.
export interface ExchangeFacts {
  connect?: ConnectFailure;
  handshake?: HandshakeFailure;
  response?: ResponseFailure;
  code?: string;
  tls?: SessionFacts;
  status?: number;
  httpVersion?: string;
  headers?: Record<string, string>;
  headersTruncated?: boolean;
  location?: string;
  body?: BodyFacts;
  timings: Omit<HttpTimings, 'resolveMs' | 'totalMs'>;
}

// A redirect followed: the answer that sent the check on, and where it was made.
export interface RedirectHop {
  url: string;
  status: number;
  location: string;
  address: string;
  ipVersion: 4 | 6;
  timings: HttpTimings;
}

export interface HttpResult extends Omit<ExchangeFacts, 'timings' | 'location'> {
  url: string;
  finalUrl: string;
  method: HttpMethod;
  address: string;
  ipVersion: 4 | 6;
  port: number;
  location?: string;
  timings: HttpTimings;
  redirects: RedirectHop[];
  durationMs: number;
  startedAt: string;
}
