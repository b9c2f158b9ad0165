// A TCP listener on a loopback address that records what each connection sent, for the tcp check's
// tests: a check connects and closes without sending a byte.
import net from 'node:net';

export interface TcpListener {
  port: number;
  accepted(): number; // connections accepted so far
  bytesReceived(): number; // over every connection
  closedByPeer(): Promise<void>; // resolves once every accepted connection has ended
  stop(): Promise<void>;
}

export function listenTcp(address: string): Promise<TcpListener> {
  let accepted = 0;
  let bytes = 0;
  const ends: Promise<void>[] = [];
  const server = net.createServer((socket) => {
    accepted++;
    socket.on('data', (chunk) => (bytes += chunk.length));
    socket.on('error', () => undefined);
    ends.push(new Promise((resolve) => socket.on('close', () => resolve())));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: address, port: 0, exclusive: true }, () => {
      resolve({
        port: (server.address() as net.AddressInfo).port,
        accepted: () => accepted,
        bytesReceived: () => bytes,
        closedByPeer: async () => void (await Promise.all(ends)),
        stop: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}
