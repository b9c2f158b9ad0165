import { createSocket } from 'node:dgram';
import { connect, createServer } from 'node:net';

// A port free for both TCP and UDP on the address (Knot listens on both); the kernel picks it.
export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await tcpPort(host);
    if (await udpFree(host, port)) return port;
  }
  throw new Error(`no port free for both TCP and UDP on ${host}`);
}

function tcpPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function udpFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createSocket('udp4');
    sock.once('error', () => {
      sock.close();
      resolve(false);
    });
    sock.bind(port, host, () => sock.close(() => resolve(true)));
  });
}

// Whether something accepts TCP connections on `port` of `host` (loopback unless given) now.
export function accepts(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect({ host, port }, () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
}
