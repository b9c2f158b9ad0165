import { Agent, request } from 'node:http';
import { connect } from 'node:net';

// The three ways the load talks to the server: a whole request, one the client abandons part-way, and a
// body written slowly over a raw socket. Each settles to a status text ("200", "aborted", "error: ...").

export interface Target {
  host: string;
  port: number;
  agent: Agent;
}

export interface Call {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const CLIENT_TIMEOUT_MS = 20_000; // far above any server deadline: hitting it is itself a finding

export function send(target: Target, call: Call, abortAfterMs?: number): Promise<string> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (status: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(abortTimer);
      resolve(status);
    };
    const headers: Record<string, string> = { ...call.headers };
    if (call.body !== undefined) headers['content-length'] = String(Buffer.byteLength(call.body));
    const req = request({ host: target.host, port: target.port, method: call.method, path: call.path, headers, agent: target.agent }, (res) => {
      res.on('data', () => {});
      res.on('end', () => done(String(res.statusCode)));
      res.on('error', () => done('error: response'));
    });
    req.setTimeout(CLIENT_TIMEOUT_MS, () => {
      req.destroy();
      done('error: client timeout');
    });
    // After our own abort the request is already settled: the error that follows changes nothing.
    req.on('error', (err: NodeJS.ErrnoException) => done(`error: ${err.code ?? err.message}`));
    const abortTimer =
      abortAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            done('aborted');
            req.destroy();
          }, abortAfterMs);
    req.end(call.body);
  });
}

// Headers at once, then the body a few bytes at a time `gapMs` apart; with `stallAfter` bytes the client
// stops writing and waits for the server to give up (408).
export function slowBody(target: Target, path: string, client: string, body: string, gapMs: number, stallAfter?: number): Promise<string> {
  return new Promise((resolve) => {
    const sock = connect({ host: target.host, port: target.port });
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const done = (status: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(guard);
      sock.destroy();
      resolve(status);
    };
    const guard = setTimeout(() => done('error: client timeout'), CLIENT_TIMEOUT_MS);
    sock.on('error', (err: NodeJS.ErrnoException) => done(`error: ${err.code ?? err.message}`));
    sock.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (m && answer.includes('\r\n\r\n')) done(m[1] as string);
    });
    sock.on('close', () => done(answer === '' ? 'error: closed without answer' : 'error: cut answer'));
    sock.on('connect', () => {
      sock.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Forwarded-For: ${client}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
      );
      let at = 0;
      const step = () => {
        if (stallAfter !== undefined && at >= stallAfter) return; // wait for the server's deadline
        if (at >= body.length) return;
        sock.write(body.slice(at, at + 4));
        at += 4;
        timer = setTimeout(step, gapMs);
      };
      step();
    });
  });
}
