import { STATUS_CODES } from 'node:http';
import { CancelSource, NOT_LISTENING, type CancelToken } from '../util/cancel';
import type { HttpResponse } from './uws';

const statusLines = new Map<number, string>();
function statusLine(status: number): string {
  let line = statusLines.get(status);
  if (line === undefined) statusLines.set(status, (line = `${status} ${STATUS_CODES[status] ?? ''}`));
  return line;
}

// "\r\nName: " for each header name (a small fixed set in our code), built once: a head is then
// two string joins per header, which also leaves less to flatten when uWS reads it.
const LINE_STARTS = new Map<string, string>();
function lineStart(name: string): string {
  let start = LINE_STARTS.get(name);
  if (start === undefined) LINE_STARTS.set(name, (start = `\r\n${name}: `));
  return start;
}

// uWS corks a socket while it runs our callback for that socket, so a response written there goes out
// in one piece without res.cork(), whose closure and native call cost as much as a header. A response
// written anywhere else (after a tool's await, from a timer, or for another socket) corks itself.
let corked: HttpResponse | null = null;

export function insideUws<A, B>(res: HttpResponse, callback: (a: A, b: B) => void, a: A, b: B): void {
  const outer = corked;
  corked = res;
  try {
    callback(a, b);
  } finally {
    corked = outer;
  }
}

// One request/response pair. uWS forbids touching `res` after an abort or after `end`, so every write
// goes through here, always corked (by uWS or by us), and becomes a no-op once the exchange is settled.
// It is also the tool's cancel token: the caller going away is this exchange's abort.
export class Exchange implements CancelToken {
  aborted = false;
  finished = false;
  status = 0;
  closeConnection = false;
  // Every header so far as "\r\nName: value" lines: uWS gets the status line and all of them in one call,
  // since each call into uWS costs more than the string work it replaces.
  private head = '';
  // The client address as logged and keyed: the peer, or the forwarded client behind a trusted proxy.
  client: string;
  route = 'unmatched'; // a known path, or "unmatched": metrics labels must stay few
  requestId = '';
  keyId: string | null = null; // the API key's id when one was accepted: logged, never the key
  problemCode: string | null = null;
  // The client key whose concurrency slot this request holds (see Admission), until it is settled.
  slotKey: string | null = null;
  // Who hears of the client going away; made on first use (most requests never need one), dropped once
  // the response is sent: nobody is left to go away.
  private abortSource: CancelSource | null = null;

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
      this.abortSource?.abort();
      this.abortSource = null;
      this.settle();
    });
  }

  get open(): boolean {
    return !this.finished;
  }

  // Once, when the response is sent or the client is gone: the owner frees what the request held.
  private settle(): void {
    this.onSettled(this);
  }

  onAbort(listener: () => void): () => void {
    if (this.aborted) {
      listener();
      return NOT_LISTENING;
    }
    if (this.finished) return NOT_LISTENING;
    return (this.abortSource ??= new CancelSource()).onAbort(listener);
  }

  // Registers the body reader; uWS needs it attached before the handler returns.
  onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): void {
    this.res.onData((chunk, isLast) => insideUws(this.res, handler, chunk, isLast));
  }

  // Values are constants, numbers, the configured origin (printable ASCII, checked at start) and request
  // ids that passed PLAIN_ID: never a line break, which in this one-piece head would start a header.
  header(name: string, value: string): this {
    this.head += lineStart(name) + value;
    return this;
  }

  send(status: number, contentType: string | null, body: string | null): void {
    if (this.finished) return;
    this.finished = true;
    this.status = status;
    this.abortSource = null;
    if (corked === this.res) this.write(status, contentType, body);
    else this.res.cork(() => this.write(status, contentType, body));
    this.settle();
  }

  private write(status: number, contentType: string | null, body: string | null): void {
    // uWS writes "HTTP/1.1 <status>\r\n"; the headers ride along after the status text.
    const type = contentType === null ? '' : `\r\nContent-Type: ${contentType}`;
    this.res.writeStatus(statusLine(status) + type + this.head);
    if (this.method === 'HEAD') this.res.endWithoutBody(body === null ? 0 : Buffer.byteLength(body), this.closeConnection);
    else this.res.end(body ?? '', this.closeConnection);
  }

  json(status: number, value: unknown, contentType = 'application/json'): void {
    this.send(status, contentType, JSON.stringify(value));
  }
}
