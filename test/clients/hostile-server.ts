import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A nettools server gone bad, on 127.0.0.1: each test says how it answers the next requests, and it
// keeps the bodies it was sent. Escapes in records and strings, endless bodies, drips, wrong shapes and
// cut-offs are written here byte for byte, the way a hostile server (or a proxy in the way) would.
export type Behaviour = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

export interface Hostile {
  base: string;
  requests: unknown[]; // each request's JSON body, as sent
  answer(behaviour: Behaviour): void;
  close(): Promise<void>;
}

export async function startHostile(): Promise<Hostile> {
  let behaviour: Behaviour = (_req, res) => res.writeHead(500).end();
  const requests: unknown[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      requests.push(body === '' ? null : JSON.parse(body));
      behaviour(req, res, body);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answer: (b) => void (behaviour = b),
    close: () => new Promise((done) => (server.closeAllConnections(), server.close(() => done()))),
  };
}

// A JSON answer, whole.
export const json =
  (status: number, value: unknown, type = status < 300 ? 'application/json' : 'application/problem+json'): Behaviour =>
  (_req, res) =>
    res.writeHead(status, { 'content-type': type }).end(JSON.stringify(value));

// An NDJSON stream of these events, whole.
export const events =
  (...list: unknown[]): Behaviour =>
  (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(list.map((e) => `${JSON.stringify(e)}\n`).join(''));

// `chunk` written again and again until the client hangs up, never more than `bound` bytes in all:
// a body (or one line) without end, as far as any sane client can tell.
export function endless(type: string, first: string, chunk: string, bound = 64 * 1024 * 1024): Behaviour {
  return (req, res) => {
    res.writeHead(200, { 'content-type': type });
    res.write(first);
    let sent = 0;
    const more = () => {
      while (sent < bound && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    req.socket.on('close', () => res.destroy());
    more();
  };
}

// The head at once, then one byte every `everyMs` until the client hangs up (at most 10 minutes' worth):
// a server that is always about to answer.
export function drip(type: string, everyMs = 200): Behaviour {
  return (req, res) => {
    res.writeHead(200, { 'content-type': type });
    let left = (10 * 60 * 1000) / everyMs;
    const timer = setInterval(() => (left-- > 0 && !res.destroyed ? res.write(' ') : (clearInterval(timer), res.end())), everyMs);
    req.socket.on('close', () => clearInterval(timer));
  };
}

// A head that promises `length` bytes, `part` of them, then the connection cut.
export const cutOff =
  (type: string, part: string, length = 4096): Behaviour =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': type, 'content-length': String(length) });
    res.write(part, () => res.socket?.destroy());
  };
