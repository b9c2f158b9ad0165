import { STATUS_CODES } from 'node:http';
import type { HttpResponse } from './uws';

export type Header = readonly [name: string, value: string];

// uWS converts every JS string it is handed to UTF-8; header names, content types and status lines come
// from a small fixed set in our code, so each is encoded once and handed over as bytes.
const encoded = new Map<string, Buffer>();
function bytes(text: string): Buffer {
  let b = encoded.get(text);
  if (b === undefined) encoded.set(text, (b = Buffer.from(text, 'latin1')));
  return b;
}
const statusLines = new Map<number, Buffer>();
function statusLine(status: number): Buffer {
  let b = statusLines.get(status);
  if (b === undefined) statusLines.set(status, (b = Buffer.from(`${status} ${STATUS_CODES[status] ?? ''}`, 'latin1')));
  return b;
}

const CONTENT_TYPE = Buffer.from('Content-Type');

// One request/response pair. uWS forbids touching `res` after an abort or after `end`, so every write
// goes through here, corked, and becomes a no-op once the exchange is settled.
export class Exchange {
  aborted = false;
  finished = false;
  status = 0;
  closeConnection = false;
  readonly headers: Header[] = [];
  // The client address as logged and keyed: the peer, or the forwarded client behind a trusted proxy.
  client: string;
  route = 'unmatched'; // a known path, or "unmatched": metrics labels must stay few
  requestId = '';
  problemCode: string | null = null;
  private abortListeners: Array<() => void> = [];
  private settleListeners: Array<() => void> = [];

  constructor(
    private readonly res: HttpResponse,
    readonly method: string,
    readonly path: string,
    peer: string, // the socket peer as text people write (see peer.ts)
    readonly startedAt: number, // performance.now() when the request arrived
    private readonly onSettled: (ex: Exchange) => void,
  ) {
    this.client = peer;
    res.onAborted(() => {
      if (this.finished) return;
      this.aborted = true;
      this.finished = true;
      for (const listener of this.abortListeners.splice(0)) listener();
      this.settle();
    });
  }

  get open(): boolean {
    return !this.finished;
  }

  // Runs once, when the response is sent or the client is gone: the place to free what the request held.
  onSettle(listener: () => void): void {
    if (this.finished) listener();
    else this.settleListeners.push(listener);
  }

  private settle(): void {
    for (const listener of this.settleListeners.splice(0)) listener();
    this.onSettled(this);
  }

  onAbort(listener: () => void): void {
    if (this.aborted) listener();
    else if (!this.finished) this.abortListeners.push(listener);
  }

  // Registers the body reader; uWS needs it attached before the handler returns.
  onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): void {
    this.res.onData(handler);
  }

  header(name: string, value: string): this {
    this.headers.push([name, value]);
    return this;
  }

  send(status: number, contentType: string | null, body: string | null): void {
    if (this.finished) return;
    this.finished = true;
    this.status = status;
    this.abortListeners = [];
    this.res.cork(() => {
      this.res.writeStatus(statusLine(status));
      if (contentType !== null) this.res.writeHeader(CONTENT_TYPE, bytes(contentType));
      for (const [name, value] of this.headers) this.res.writeHeader(bytes(name), value);
      if (this.method === 'HEAD') this.res.endWithoutBody(body === null ? 0 : Buffer.byteLength(body), this.closeConnection);
      else this.res.end(body ?? '', this.closeConnection);
    });
    this.settle();
  }

  json(status: number, value: unknown, contentType = 'application/json'): void {
    this.send(status, contentType, JSON.stringify(value));
  }
}
