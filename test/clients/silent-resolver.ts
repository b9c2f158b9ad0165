// A resolver that takes every query and never answers: a UDP socket of this process that reads and drops.
// Unlike a paused Knot it cannot be woken by anyone else, and nothing else can share its port.
import dgram from 'node:dgram';
import type { KnotServer } from '../support/knot';
import { startServer, type RunningServer } from '../support/server';

export interface Silent {
  address: string;
  port: number;
  close(): Promise<void>;
}

export function startSilentResolver(address: string): Promise<Silent> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket({ type: 'udp4', reuseAddr: false });
    socket.on('message', () => undefined);
    socket.once('error', reject);
    socket.bind(0, address, () => {
      const { port } = socket.address();
      resolve({ address, port, close: () => new Promise((done) => socket.close(() => done())) });
    });
  });
}

// A server whose resolver `a` is a Knot and `m` the silent one: a dns stream asking `m` starts, then
// ends with the problem `upstream-timeout`.
export function startMuteServer(a: KnotServer, m: Silent): Promise<RunningServer> {
  return startServer({ NETTOOLS_RESOLVERS: `a=${a.address}:${a.port},m=${m.address}:${m.port}`, NETTOOLS_RATE_LIMIT: '100/60s' });
}
