import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';

// A streamed tool response as it arrives: each chunk with the time it came, read as the server sends it.
export interface Streamed {
  status: number;
  headers: http.IncomingHttpHeaders;
  chunks: Array<{ at: number; text: string }>;
  text(): string;
  ended: Promise<void>; // the response's end (or the connection's)
  destroy(): void; // the client goes away
}

export function postStream(base: string, path: string, body: unknown, accept: string): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', accept };
    // https: the test nginx front door, whose certificate is self-signed.
    const request = base.startsWith('https:') ? (u: URL, o: https.RequestOptions, cb: (res: http.IncomingMessage) => void) => https.request(u, { ...o, rejectUnauthorized: false }, cb) : http.request;
    const req = request(new URL(path, base), { method: 'POST', headers, agent: false }, (res) => {
      const chunks: Streamed['chunks'] = [];
      const ended = new Promise<void>((done) => {
        res.on('end', done);
        res.on('close', done);
      });
      res.on('data', (c: Buffer) => chunks.push({ at: performance.now(), text: c.toString('utf8') }));
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        chunks,
        text: () => chunks.map((c) => c.text).join(''),
        ended,
        destroy: () => req.destroy(),
      });
    });
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    req.end(JSON.stringify(body));
  });
}

export interface StreamEvent {
  event: string;
  id?: number;
  data: any;
  at: number; // when the chunk that completed it arrived
}

// NDJSON, strictly as this server frames it: every line one JSON object with exactly "event" (a string)
// and "data", every line after the first led by one space (what closes each event's chunk, see
// src/http/stream-framing.ts); the text ends with a line break.
export function parseNdjson(s: Streamed): StreamEvent[] {
  const events: StreamEvent[] = [];
  let buffered = '';
  for (const chunk of s.chunks) {
    buffered += chunk.text;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const lead = events.length === 0 ? '' : ' ';
      if (!line.startsWith(lead) || line[lead.length] !== '{') throw new Error(`an NDJSON line not led by ${JSON.stringify(lead)}: ${line}`);
      const value = JSON.parse(line);
      const keys = Object.keys(value);
      if (keys.length !== 2 || keys[0] !== 'event' || keys[1] !== 'data' || typeof value.event !== 'string') throw new Error(`not an NDJSON event line: ${line}`);
      events.push({ event: value.event, data: value.data, at: chunk.at });
    }
  }
  if (buffered !== '') throw new Error(`unterminated NDJSON line: ${buffered}`);
  return events;
}

// SSE, strictly as this server frames it: blocks of exactly "event: <name>", "id: <n>", "data: <JSON>"
// each ending in \n, then a blank line; or a ": keep-alive" comment and a blank line. Every block after
// the first starts with an empty comment line ":" (what closes each event's chunk, see
// src/http/stream-framing.ts). Ids count from 1.
export function parseSse(s: Streamed): { events: StreamEvent[]; comments: number } {
  const events: StreamEvent[] = [];
  let comments = 0;
  let buffered = '';
  for (const chunk of s.chunks) {
    buffered += chunk.text;
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const lead = events.length + comments === 0 ? '' : ':\n';
      if (!buffered.startsWith(lead)) throw new Error(`an SSE block not led by ${JSON.stringify(lead)}: ${JSON.stringify(buffered.slice(0, end))}`);
      const block = buffered.slice(lead.length, end);
      buffered = buffered.slice(end + 2);
      if (block === ': keep-alive') {
        comments++;
        continue;
      }
      const m = /^event: ([a-z]+)\nid: (\d+)\ndata: ([^\n]*)$/.exec(block);
      if (m === null) throw new Error(`not an SSE event block: ${JSON.stringify(block)}`);
      const id = Number(m[2]);
      if (id !== events.length + 1) throw new Error(`SSE id ${id} where ${events.length + 1} was due`);
      events.push({ event: m[1] as string, id, data: JSON.parse(m[3] as string), at: chunk.at });
    }
  }
  if (buffered !== '') throw new Error(`unterminated SSE block: ${JSON.stringify(buffered)}`);
  return { events, comments };
}

export interface WireEvent {
  event: string;
  data: any;
}

// The whole events in a stream's text so far, read as any client that follows the format would: NDJSON
// each whole line as JSON (with the whitespace JSON allows around it), SSE each block a blank line ends,
// comment lines (":") skipped. Whatever follows the last whole event is not an event yet.
export function eventsSoFar(text: string, mode: 'ndjson' | 'sse'): WireEvent[] {
  const lines = text.split('\n').slice(0, -1);
  if (mode === 'ndjson') return lines.map((line) => JSON.parse(line) as WireEvent);
  const events: WireEvent[] = [];
  let fields = new Map<string, string>();
  for (const line of lines) {
    if (line === '') {
      if (fields.has('data')) events.push({ event: fields.get('event') ?? 'message', data: JSON.parse(fields.get('data') as string) });
      fields = new Map();
    } else if (!line.startsWith(':')) {
      const colon = line.indexOf(':');
      fields.set(line.slice(0, colon), line.slice(colon + 1).replace(/^ /, ''));
    }
  }
  return events;
}
