// The HTTP exchange engine's TypeScript side: one request on one connection of its own per call, to an
// address value (src/net/address.ts) whose bytes go to the engine as they are. The engine makes the
// connection, the TLS session and the request itself and times each phase where it ends
// (native/http/http_exchange.h), so the timings hold the network and the server, not this process's loop.
import type { Address } from '../../net/address';
import { addon } from '../../native/addon';
import { answerOnce } from '../answer-once';
import type { HttpLimits, NativeExchangeResult, NativeHttpEngine } from '../../native/http-engine';

export type ExchangeResult = NativeExchangeResult;

export interface ExchangeSpec {
  address: Address;
  port: number;
  timeoutMs: number;
  tls: boolean;
  serverName: string; // '' for none: the certificate must then hold the address
  verify: boolean;
  request: string; // the whole request head
  headRequest: boolean;
  bodyMaxBytes: number;
}

export interface HttpExchanger {
  // Calls `done` once, later (never from inside exchange), unless the returned function is called first:
  // that closes the exchange's socket, and `done` never comes.
  exchange(spec: ExchangeSpec, done: (result: ExchangeResult) => void): () => void;
  inFlight(): number;
  close(): void;
}

// pem: the trust anchors https exchanges verify against, every certificate in one PEM text.
export function openHttpExchanger(pem: string): HttpExchanger {
  const engine: NativeHttpEngine = new (addon().HttpEngine)(pem);
  return {
    exchange(spec, done) {
      const { address } = spec;
      return answerOnce(
        (answer: (result: ExchangeResult) => void) => engine.exchange(address.bytes, address.family, spec.port, spec.timeoutMs, spec.tls, spec.serverName, spec.verify, spec.request, spec.headRequest, spec.bodyMaxBytes, answer),
        (id) => engine.cancel(id),
        done,
      );
    },
    inFlight: () => engine.inFlight(),
    close: () => engine.close(),
  };
}

// The engine's own limits, read from the addon once (native/http/http_limits.h).
let limits: HttpLimits | undefined;

export function httpLimits(): HttpLimits {
  limits ??= addon().HttpEngine.limits;
  return limits;
}
