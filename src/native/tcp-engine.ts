import type { Range } from './limits';

// What the addon's TcpEngine class (native/tcp/tcp_engine_binding.cc) takes and hands over. The engine's
// TypeScript side (src/engines/tcp) wraps it; nothing else calls it.

export type NativeConnectOutcome = 'connected' | 'refused' | 'unreachable' | 'timeout' | 'error';

// One attempt's result: its outcome, the nanoseconds from connect() to it (CLOCK_MONOTONIC), and the
// errno's name behind a failure (ECONNREFUSED), undefined when connected or timed out.
export type ConnectDone = (outcome: NativeConnectOutcome, elapsedNs: number, errno: string | undefined) => void;

export interface NativeTcpEngine {
  // Positional, like every binding call (native/common/args.h). address: the 4 or 16 bytes of an address
  // of `family` (the engine parses no text). `done` comes once, never from inside connect().
  connect(address: Uint8Array, family: number, port: number, timeoutMs: number, done: ConnectDone): number;
  // Ends an attempt at once (its socket closed); its `done` never comes.
  cancel(id: number): void;
  close(): void;
  inFlight(): number;
}

// The engine's limits, defined only in native/tcp/tcp_limits.h.
export interface TcpLimits {
  readonly port: Range;
  readonly timeoutMs: Range;
}

export interface NativeTcpEngineClass {
  new (): NativeTcpEngine;
  readonly limits: TcpLimits;
}
