import { spawn } from 'node:child_process';
import path from 'node:path';
import { postChunked } from '../support/chunked-reader';
import { eventsSoFar, type WireEvent } from './stream-reader';

// Clients as people read a stream with them, each started on one request; `events()` is what the client
// has handed on so far. Only 127.0.0.1 is ever asked.
export interface StreamClient {
  events(): WireEvent[];
  // Once the client is done: whether it read the response to its end without a fault, and the text after
  // the last event (a stream that ends cleanly leaves ''). Never rejects: a stopped client is done too.
  finished: Promise<{ complete: boolean; rest: string }>;
  stop(): void;
}

export type Mode = 'ndjson' | 'sse';
export const ACCEPT: Readonly<Record<Mode, string>> = { ndjson: 'application/x-ndjson', sse: 'text/event-stream' };

const URLLIB3_READER = path.resolve(__dirname, '..', '..', '..', 'test', 'support', 'urllib3-stream.py');

export type ClientName = 'chunk reader' | 'urllib3' | 'curl' | 'fetch';

export function startClient(name: ClientName, port: number, path: string, body: unknown, mode: Mode): StreamClient {
  const url = `http://127.0.0.1:${port}${path}`;
  switch (name) {
    case 'chunk reader':
      return chunkReader(port, path, body, mode);
    case 'urllib3':
      return urllib3Reader(url, body, mode);
    case 'curl':
      return textClient(mode, (onText) => processText('curl', ['-sN', '--noproxy', '*', '-H', 'content-type: application/json', '-H', `accept: ${ACCEPT[mode]}`, '--data-binary', JSON.stringify(body), url], onText));
    case 'fetch':
      return textClient(mode, (onText) => fetchText(url, body, mode, onText));
  }
}

// Whole chunks only (chunked-reader.ts): the strictest a client can be and still follow HTTP.
function chunkReader(port: number, path: string, body: unknown, mode: Mode): StreamClient {
  const r = postChunked(port, path, body, ACCEPT[mode]);
  const check = () => {
    if (r.error !== null) throw new Error(`chunk reader: ${r.error}`);
  };
  return {
    events: () => {
      check();
      return eventsSoFar(r.text(), mode);
    },
    finished: r.closed.then(() => ({ complete: r.ended && r.error === null, rest: restAfterEvents(r.text(), mode) })),
    stop: () => r.close(),
  };
}

// Debian's python3 with its urllib3 (test/setup/ensure-deps.sh installs it); the first python3 on PATH
// may be another one without it.
function urllib3Reader(url: string, body: unknown, mode: Mode): StreamClient {
  const events: WireEvent[] = [];
  let rest: string | null = null;
  const { stop, exited } = processText('/usr/bin/python3', [URLLIB3_READER, url, ACCEPT[mode], JSON.stringify(body)], lineByLine((line) => {
    const value = JSON.parse(line);
    if ('rest' in value) rest = value.rest;
    else if ('event' in value) events.push(value);
  }));
  return {
    events: () => events,
    finished: exited.then((code) => ({ complete: code === 0 && rest !== null, rest: rest ?? '' })),
    stop,
  };
}

function textClient(mode: Mode, start: (onText: (text: string) => void) => { stop(): void; exited: Promise<number | null> }): StreamClient {
  let text = '';
  const { stop, exited } = start((more) => (text += more));
  return {
    events: () => eventsSoFar(text, mode),
    finished: exited.then((code) => ({ complete: code === 0, rest: restAfterEvents(text, mode) })),
    stop,
  };
}

function processText(command: string, args: string[], onText: (text: string) => void): { stop(): void; exited: Promise<number | null> } {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', onText);
  // A command that cannot start (not installed) ends as one that failed.
  const exited = new Promise<number | null>((done) => {
    child.on('error', () => done(null));
    child.on('close', (code) => done(code));
  });
  return { stop: () => void child.kill('SIGKILL'), exited };
}

function fetchText(url: string, body: unknown, mode: Mode, onText: (text: string) => void): { stop(): void; exited: Promise<number | null> } {
  const abort = new AbortController();
  const exited = (async () => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT[mode] }, body: JSON.stringify(body), signal: abort.signal });
    const decoder = new TextDecoder();
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) onText(decoder.decode(bytes, { stream: true }));
    return 0;
  })().catch(() => null);
  return { stop: () => abort.abort(), exited };
}

function lineByLine(onLine: (line: string) => void): (text: string) => void {
  let pending = '';
  return (text) => {
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() as string;
    for (const line of lines) onLine(line);
  };
}

// What follows the last line break (NDJSON) or the last blank line (SSE): text of no whole event.
function restAfterEvents(text: string, mode: Mode): string {
  const end = mode === 'ndjson' ? '\n' : '\n\n';
  const at = text.lastIndexOf(end);
  return at < 0 ? text : text.slice(at + end.length);
}
