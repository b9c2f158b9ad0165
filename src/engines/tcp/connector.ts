// The TCP connect engine's TypeScript side: one timed connection attempt at a time per call, to an
// address value (src/net/address.ts) whose bytes go to the engine as they are. The timing is the
// engine's own (native/tcp/tcp_connector.h): from just before connect() to the socket's writable event
// (seen as connect() returns when the handshake ended inside it).
import type { Address } from '../../net/address';
import { addon } from '../../native/addon';
import { answerOnce } from '../answer-once';
import type { ConnectDone, NativeConnectOutcome, NativeTcpEngine, TcpLimits } from '../../native/tcp-engine';

export type ConnectOutcome = NativeConnectOutcome;

export interface ConnectAttempt {
  outcome: ConnectOutcome;
  elapsedMs: number; // unrounded: connect() to the outcome
  errno?: string; // the errno's name behind a failure that is not a timeout
}

export interface TcpConnector {
  // Calls `done` once, later (never from inside connect), unless the returned function is called first:
  // that closes the attempt's socket, and `done` never comes.
  connect(address: Address, port: number, timeoutMs: number, done: (attempt: ConnectAttempt) => void): () => void;
  inFlight(): number;
  close(): void;
}

export function openTcpConnector(): TcpConnector {
  const engine: NativeTcpEngine = new (addon().TcpEngine)();
  return {
    connect(address, port, timeoutMs, done) {
      return answerOnce(
        (answer: ConnectDone) => engine.connect(address.bytes, address.family, port, timeoutMs, answer),
        (id) => engine.cancel(id),
        (outcome, elapsedNs, errno) => done({ outcome, elapsedMs: elapsedNs / 1e6, ...(errno !== undefined ? { errno } : {}) }),
      );
    },
    inFlight: () => engine.inFlight(),
    close: () => engine.close(),
  };
}

// The engine's own limits, read from the addon once (native/tcp/tcp_limits.h).
let limits: TcpLimits | undefined;

export function tcpLimits(): TcpLimits {
  limits ??= addon().TcpEngine.limits;
  return limits;
}
