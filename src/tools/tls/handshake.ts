import { performance } from 'node:perf_hooks';
import { connect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { roundMicros } from '../../engines/icmp/stats';
import type { Answer } from '../../util/answer';
import type { CancelToken } from '../../util/cancel';
import { chainFacts } from './certificates';
import type { TrustStore } from './trust-store';
import type { SessionFacts, TlsStatus } from './types';

export interface HandshakeOptions {
  address: string; // the IP literal the target policy checked: never a name, so nothing is resolved again
  port: number;
  serverName?: string;
  timeoutMs: number;
  trust: Pick<TrustStore, 'context' | 'anchors'>; // made once: the trust anchors, parsed once rather than per check
}

export interface HandshakeOutcome {
  status: TlsStatus;
  code?: string;
  connectMs?: number;
  handshakeMs?: number;
  session?: SessionFacts;
}

// tls.connect hands requestOCSP on to its TLSSocket, though @types/node lists it for the socket alone.
export const ASK_OCSP = { requestOCSP: true } as ConnectionOptions;

export const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EACCES']);

// One handshake; the socket is destroyed the moment it completes or fails: no byte of application data.
// rejectUnauthorized is off so that a certificate that does not verify is reported, not hidden by a
// closed connection; Node still verifies the chain and the name and says what it found. Answers by
// callback, as the engines do (null: the caller went away first); the tool takes it through `promised`.
export function handshake(options: HandshakeOptions, cancel: CancelToken, resolve: Answer<HandshakeOutcome | null>): void {
  const t0 = performance.now();
  let connectMs: number | undefined;
  let ocsp = false;
  const socket = connect({ host: options.address, port: options.port, ...(options.serverName !== undefined ? { servername: options.serverName } : {}), secureContext: options.trust.context, rejectUnauthorized: false, ...ASK_OCSP });
  const end = (outcome: HandshakeOutcome | null) => {
    clearTimeout(timer);
    stopListening();
    socket.destroy();
    resolve(outcome);
  };
  const timer = setTimeout(() => end({ status: 'timeout', ...(connectMs !== undefined ? { connectMs } : {}) }), options.timeoutMs);
  const stopListening = cancel.onAbort(() => end(null));
  socket.once('connect', () => (connectMs = roundMicros(performance.now() - t0)));
  socket.on('OCSPResponse', (response: Buffer | undefined) => (ocsp = Buffer.isBuffer(response) && response.length > 0));
  socket.once('secureConnect', () => {
    const handshakeMs = roundMicros(performance.now() - t0);
    end({ status: 'handshake', ...(connectMs !== undefined ? { connectMs } : {}), handshakeMs, session: sessionFacts(socket, ocsp, options.trust.anchors) });
  });
  socket.once('error', (err: NodeJS.ErrnoException) => end(connectionFailure(err, connectMs)));
}

// How a socket error ends a check, by how far it got: connected, a TLS failure; before, the connection's.
export function connectionFailure(err: NodeJS.ErrnoException, connectMs: number | undefined): HandshakeOutcome {
  const code = err.code ?? 'ERR_UNKNOWN';
  if (connectMs !== undefined) return { status: 'handshake-failed', code, connectMs };
  if (code === 'ECONNREFUSED') return { status: 'refused', code };
  return { status: UNREACHABLE.has(code) ? 'unreachable' : 'error', code };
}

// What a completed handshake shows (the http check reports the same of its https connections).
export function sessionFacts(socket: TLSSocket, ocspStapled: boolean, anchors: ReadonlySet<string>): SessionFacts {
  const cipher = socket.getCipher();
  const alpn = socket.alpnProtocol;
  const error = socket.authorizationError as unknown as string | Error | null;
  return {
    verified: socket.authorized,
    ...(socket.authorized || error === null ? {} : { verifyError: typeof error === 'string' ? error : ((error as NodeJS.ErrnoException).code ?? error.message) }),
    protocol: socket.getProtocol() ?? 'unknown',
    cipher: cipher.standardName ?? cipher.name,
    ...(typeof alpn === 'string' ? { alpn } : {}),
    ocspStapled,
    certificates: chainFacts(socket.getPeerCertificate(true), Date.now(), anchors),
  };
}
