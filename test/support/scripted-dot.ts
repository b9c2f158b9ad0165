import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import type { SeenQuery } from './scripted-dns';

// A loopback DoT "resolver" whose answers the test writes (as scripted-dns.ts does over UDP): real TLS
// with the certificate given, each query read off its length framing and handed to the test's handler
// with the connection it came on; what goes back, in which order, and when, is the handler's.
export interface DotConnection {
  send(message: Buffer): void;
}

export interface ScriptedDot {
  address: string;
  port: number;
  connections(): number;
  stop(): Promise<void>;
}

function questionName(msg: Buffer): { name: string; end: number } {
  const labels: string[] = [];
  let i = 12;
  while (i < msg.length && msg[i] !== 0) {
    const len = msg[i] ?? 0;
    labels.push(msg.subarray(i + 1, i + 1 + len).toString('latin1'));
    i += len + 1;
  }
  return { name: labels.join('.'), end: i + 1 };
}

export async function startScriptedDot(pem: string, key: string, onQuery: (q: SeenQuery, conn: DotConnection) => void, address = '127.0.0.1'): Promise<ScriptedDot> {
  let connections = 0;
  const open = new Set<tls.TLSSocket>();
  const server = tls.createServer({ cert: readFileSync(pem), key: readFileSync(key) }, (socket) => {
    connections++;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    let buffered = Buffer.alloc(0);
    const conn: DotConnection = {
      send: (message) => {
        const length = Buffer.alloc(2);
        length.writeUInt16BE(message.length);
        socket.write(Buffer.concat([length, message]));
      },
    };
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const raw = buffered.subarray(2, 2 + buffered.readUInt16BE(0));
        buffered = buffered.subarray(2 + raw.length);
        const { name, end } = questionName(raw);
        onQuery({ address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0, id: raw.readUInt16BE(0), name, type: raw.readUInt16BE(end), raw }, conn);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: address, port: 0 }, () => resolve());
  });
  return {
    address,
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    // The engine keeps its connection open while idle: the server ends it, as a resolver going away does.
    stop: () => {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
