import net from 'node:net';
import tls from 'node:tls';
import { waitFor } from './wait';

export interface HeldRequest {
  socket: net.Socket;
  // Everything the server wrote, once it closes the connection or `finish` is answered.
  response: Promise<string>;
  finish(): void;
}

// A tool request whose body is held back: in flight, as far as the server knows, until `finish`. Only the
// caller can see the server take it in: it resolves once `seen` holds (at once without it).
export function holdRequest(
  port: number,
  opts: { localAddress?: string; headers?: Record<string, string>; body?: string; seen?: () => boolean | Promise<boolean> } = {},
): Promise<HeldRequest> {
  const body = opts.body ?? '{"host":"bad host"}';
  const extra = Object.entries(opts.headers ?? {})
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: opts.localAddress }, () => {
      socket.write(
        `POST /api/tools/ping HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 1)}`,
      );
      let data = '';
      const response = new Promise<string>((done) => {
        socket.on('data', (c) => {
          data += c.toString();
          if (/\r\n\r\n/.test(data) && /content-length: (\d+)/i.test(data)) {
            const len = Number(/content-length: (\d+)/i.exec(data)![1]);
            if (data.length - data.indexOf('\r\n\r\n') - 4 >= len) done(data);
          }
        });
        socket.on('close', () => done(data));
      });
      const held = { socket, response, finish: () => void socket.write(body.slice(1)) };
      waitFor('the held request in flight at the server', opts.seen ?? (() => true)).then(() => resolve(held), reject);
    });
    socket.on('error', reject);
  });
}

// Sends `raw` over TLS (HTTP/1.1 by ALPN) to a loopback port and collects everything until the server
// closes the connection, or `waitMs` passes (then what came so far, maybe nothing). Raw bytes, since
// Node's own HTTP client refuses the malformed requests these tests need.
export function exchangeTls(port: number, raw: string | Buffer, opts: { localAddress?: string; waitMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const tcp = net.connect({ host: '127.0.0.1', port, localAddress: opts.localAddress ?? '127.0.0.1' });
    const socket = tls.connect({ socket: tcp, servername: 'localhost', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, () => socket.write(raw));
    let data = '';
    const timer = setTimeout(() => socket.destroy(), opts.waitMs ?? 20_000);
    socket.on('data', (c: Buffer) => (data += c.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(data);
    });
    socket.on('error', reject);
  });
}
