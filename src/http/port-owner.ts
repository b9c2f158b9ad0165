import { addon } from '../native/addon';

// uWebSockets.js listens with SO_REUSEPORT unless told otherwise, and the kernel lets any later socket of
// the same user join such a port: a second nettools (or anything else listening that way) started on a
// port already served would start "fine" and take every other connection. So before it serves, the server
// binds the port once the plain way (no SO_REUSEPORT), which fails while any other socket listens there,
// and refuses to start, naming why. It binds and never listens: a client (a health check) that connects
// meanwhile is refused, never accepted by the check and reset. A single thread then listens exclusively
// (nothing can join it later); worker threads must share the port among themselves with SO_REUSEPORT
// (docs/scaling.md).

export type PortRefusal = 'in-use' | 'permission' | 'no-such-address' | 'other';

export class PortUnavailableError extends Error {
  readonly exitCode = 2; // the operator's to fix, as a bad setting is
  constructor(
    readonly code: PortRefusal,
    message: string,
  ) {
    super(message);
  }
}

const REFUSALS: Record<string, { code: PortRefusal; words: string }> = {
  EADDRINUSE: { code: 'in-use', words: 'is already served by another process; stop it or choose another PORT' },
  EACCES: { code: 'permission', words: 'needs a privilege this process lacks (ports below 1024); choose another PORT' },
  EADDRNOTAVAIL: { code: 'no-such-address', words: 'names an address this host does not have; check HOST' },
};

/**
 * Binds host:port once the plain way and closes it again: the port bound (the kernel's pick for 0); throws
 * a PortUnavailableError naming why not when anything listens there now.
 */
export function claimPort(host: string, port: number): number {
  const claimed = addon().claimTcpPort(host, port);
  if (typeof claimed === 'number') return claimed;
  const known = REFUSALS[claimed];
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  throw new PortUnavailableError(known?.code ?? 'other', `${where} ${known?.words ?? `cannot be listened on (${claimed})`}`);
}
