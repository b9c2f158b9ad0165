import http from 'node:http';
import { requestIsLoopbackOnly } from './loopback-only';
import type { Case } from './cases';

export type Reply =
  | { kind: 'answer'; status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }
  | { kind: 'dropped'; error: string } // the connection ended without a whole answer
  | { kind: 'hung' }; // no answer within the wait

// Longer than any tool may take with the fuzz server's settings (dns: 5 s timeout per query).
export const ANSWER_WAIT_MS = 15_000;

// One request on its own connection to the server on 127.0.0.1. Refuses to send anything that could
// make the server ping outside loopback.
export function send(port: number, c: Case): Promise<Reply> {
  if (!requestIsLoopbackOnly(c.path, c.body)) throw new Error(`refusing to send a request that names a non-loopback address: ${c.path}`);
  const headers: Record<string, string | number> = { ...c.headers };
  // Without a length, Node sends the body chunked.
  if (c.body !== undefined && !c.chunked) headers['content-length'] = c.body.length;
  return new Promise((resolve) => {
    let done = false;
    const finish = (reply: Reply) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      resolve(reply);
    };
    const req = http.request({ host: '127.0.0.1', port, method: c.method, path: c.path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => finish({ kind: 'answer', status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', (err) => finish({ kind: 'dropped', error: `while reading the answer: ${err.message}` }));
      res.on('close', () => finish({ kind: 'dropped', error: 'the answer was cut off' })); // after `end`, a no-op
    });
    const timer = setTimeout(() => finish({ kind: 'hung' }), ANSWER_WAIT_MS);
    req.on('error', (err) => finish({ kind: 'dropped', error: err.message }));
    if (c.chunked && c.body !== undefined) {
      const half = c.body.length >> 1;
      req.write(c.body.subarray(0, half));
      req.end(c.body.subarray(half));
    } else req.end(c.body);
  });
}
