import type { Range } from './limits';

// What the addon's HttpEngine class (native/http/http_engine_binding.cc) takes and hands over. The
// engine's TypeScript side (src/engines/http) wraps it; nothing else calls it.

// Where an exchange ended: no connection, no TLS session fit to send on, no whole answer, or answered
// (its body whole, or cut at the cap).
export type NativeExchangeStage = 'connect' | 'handshake' | 'response' | 'answered';
export type NativeExchangeFailure = 'refused' | 'unreachable' | 'timeout' | 'error';

export interface NativeTlsFacts {
  verified: boolean;
  verifyError?: string; // Node's name (CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID, ...)
  protocol: string;
  cipher: string; // IANA name
  ocspStapled: boolean;
  chain: Buffer[]; // DER, leaf first: up to the anchor when verified, else as the server sent it
}

// Nanoseconds (CLOCK_MONOTONIC), each phase from the end of the one before; absent: not reached.
export interface NativeExchangeResult {
  stage: NativeExchangeStage;
  failure?: NativeExchangeFailure;
  code?: string; // errno name, Node's TLS code, or the HTTP parser's (llhttp's names)
  connectNs?: number;
  tlsNs?: number;
  requestNs?: number; // the request written
  firstByteNs?: number;
  transferNs?: number;
  totalNs: number; // connect() to the end
  tls?: NativeTlsFacts;
  status?: number;
  httpVersion?: string;
  rawHeaders?: string[]; // name, value, ... as sent (latin1)
  headersDropped?: number;
  body?: { bytes: number; truncated: boolean; sha256: string };
}

export interface NativeHttpEngine {
  // Positional, like every binding call (native/common/args.h). address: the 4 or 16 bytes of an address
  // of `family`; serverName '' for none (an IP literal); request: the whole request head. `done` comes
  // once, never from inside exchange().
  exchange(
    address: Uint8Array,
    family: number,
    port: number,
    timeoutMs: number,
    tls: boolean,
    serverName: string,
    verify: boolean,
    request: string,
    headRequest: boolean,
    bodyMax: number,
    done: (result: NativeExchangeResult) => void,
  ): number;
  // Ends an exchange at once (its socket closed); its `done` never comes.
  cancel(id: number): void;
  close(): void;
  inFlight(): number;
}

// The engine's limits, defined only in native/http/http_limits.h.
export interface HttpLimits {
  readonly port: Range;
  readonly timeoutMs: Range;
  readonly requestBytes: Range;
  readonly bodyMaxBytes: Range;
  readonly serverNameBytes: Range;
}

export interface NativeHttpEngineClass {
  // pem: the trust anchors, every certificate in one PEM text.
  new (pem: string): NativeHttpEngine;
  readonly limits: HttpLimits;
}
