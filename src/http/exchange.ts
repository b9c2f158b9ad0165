import { STATUS_CODES } from 'node:http';
import { CancelSource, NOT_LISTENING, type CancelToken } from '../util/cancel';
import type { ListNode } from '../util/linked-list';
import { problemJson } from './problem-json';
import type { HttpResponse } from './uws';
import { writeAtTurnEnd, type TurnEndWrite } from './write-batch';

// "<status> <reason>" by status, made on first use. Filled up front (statuses are 100-599) so that the list
// is read by index as a plain array, not hashed as a sparse one.
const statusLines: Array<string | undefined> = new Array<string | undefined>(600).fill(undefined);
function statusLine(status: number): string {
  return (statusLines[status] ??= `${status} ${STATUS_CODES[status] ?? ''}`);
}

// "\r\nName: " for each header name (a small fixed set in our code), built once: a head is then
// two string joins per header, which also leaves less to flatten when uWS reads it.
const LINE_STARTS = new Map<string, string>();
function lineStart(name: string): string {
  let start = LINE_STARTS.get(name);
  if (start === undefined) LINE_STARTS.set(name, (start = `\r\n${name}: `));
  return start;
}

// A problem's Content-Type, and the one header every problem carries: its text (which may quote the
// caller's input) must be read as the JSON it is, never sniffed into a page a browser would run.
const PROBLEM_TYPE = 'application/problem+json';
const PROBLEM_TYPE_HEAD = `\r\nContent-Type: ${PROBLEM_TYPE}\r\nX-Content-Type-Options: nosniff`;

function typeHead(type: string | null): string {
  if (type === null) return '';
  return type === PROBLEM_TYPE ? PROBLEM_TYPE_HEAD : `\r\nContent-Type: ${type}`;
}

// What a request gets when even the fault handler failed: a fixed problem body.
const LAST_RESORT_PROBLEM = problemJson('internal-error', 'unexpected error; this is a bug');

// The exchange whose response is being written inside res.cork: one function for every cork, not a
// closure per response.
let writing: Exchange | null = null;
function writeCorked(): void {
  (writing as Exchange).write();
}

// A streamed response (stream-writer.ts) that the exchange hands a late answer to: a fault after the head
// went out can no longer be a status, so it becomes the stream's problem event and its end.
export interface StreamSink {
  failed(problemBody: string): void;
}

// Where a request's body goes: its chunks (`chunk` is uWS's own, valid only during the call), or word
// that the client went away first.
export interface BodySink {
  data(chunk: ArrayBuffer, isLast: boolean): void;
  gone(): void;
}

// A piece with nothing after it (the end goes out with it).
export const NO_FILLER = new Uint8Array(0);

// The piece of a streamed response being written inside res.cork, the filler written right after it
// (stream-framing.ts: it closes the piece's chunk), and what res.write said of them.
let piece = '';
let pieceFiller: Uint8Array = NO_FILLER;
let pieceWritten = false;
function writePieceCorked(): void {
  (writing as Exchange).writePiece();
}

// One request/response pair. uWS forbids touching `res` after an abort or after `end`, so every write
// goes through here, corked, at the end of the loop turn (write-batch.ts; a streamed response's pieces at
// once, as its events come), and becomes a no-op once the exchange is settled. It is also the tool's cancel token: the caller going away is this exchange's abort.
export class Exchange implements CancelToken, TurnEndWrite {
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
  // Its place among the server's requests in flight (server.ts), until it is settled.
  inFlightNode: ListNode<Exchange> | null = null;
  // Who hears of the client going away; made on first use (most requests never need one), dropped once
  // the response is sent: nobody is left to go away.
  private abortSource: CancelSource | null = null;
  // The body reader (read-body.ts), told before abortSource's listeners that the client went away:
  // nearly every request has one and nothing ever stops it listening, so it is one slot, not a
  // CancelSource with a list and a remover.
  private bodyGone: BodySink | null = null;
  // The response sent and waiting for the end of the loop turn.
  private pendingType: string | null = null;
  private pendingBody: string | null = null;
  // A streamed response: null until its head is written (then every write goes out at once).
  private sink: StreamSink | null = null;

  constructor(
    private readonly res: HttpResponse,
    readonly method: string,
    readonly path: string,
    peer: string, // the socket peer as text people write (see peer.ts)
    readonly startedAt: number, // performance.now() when the request arrived
    private readonly onSettled: (ex: Exchange) => void,
    // A throw on this request's path: a bug. The owner logs it and answers 500 if nothing was sent.
    private readonly onFault: (ex: Exchange, err: unknown) => void,
  ) {
    this.client = peer;
    res.onAborted(() => {
      try {
        this.clientGone();
      } catch (err) {
        this.fail(err);
      }
    });
  }

  private clientGone(): void {
    if (this.aborted) return;
    // A response already sent but still waiting for the end of the turn is dropped then, unwritten.
    if (this.finished) {
      this.aborted = true;
      return;
    }
    this.aborted = true;
    this.finished = true;
    this.hearGone();
    this.settle();
  }

  // Every callback uWS makes into this request's code goes through a guard that ends here: a throw must
  // never unwind into uWS, where nothing catches it and the process ends (one request did that once).
  fail(err: unknown): void {
    try {
      this.onFault(this, err);
    } catch {
      // The fault handler failed too: answer without it.
      this.send(500, PROBLEM_TYPE, LAST_RESORT_PROBLEM);
    }
  }

  get open(): boolean {
    return !this.finished;
  }

  // Once, when the response is sent or the client is gone: the owner frees what the request held.
  private settle(): void {
    this.onSettled(this);
  }

  // Those listening hear it once, the body reader first (it listened before any tool could).
  private hearGone(): void {
    const body = this.bodyGone;
    const source = this.abortSource;
    this.bodyGone = null;
    this.abortSource = null;
    body?.gone();
    source?.abort();
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
  // The body's chunks go to `sink`, and its gone() is called once if the client goes away before the
  // response is sent. One object for both, so that a request's body costs one function (uWS's).
  readBody(sink: BodySink): void {
    if (this.aborted) sink.gone();
    else if (!this.finished) this.bodyGone = sink;
    this.res.onData((chunk, isLast) => {
      try {
        sink.data(chunk, isLast);
      } catch (err) {
        this.fail(err);
      }
    });
  }

  // Values are constants, numbers, the configured origin (printable ASCII, checked at start) and request
  // ids that passed PLAIN_ID: never a line break, which in this one-piece head would start a header.
  header(name: string, value: string): this {
    this.head += lineStart(name) + value;
    return this;
  }

  // Header lines already made, each "\r\nName: value" with a value as header() takes: for the headers of
  // every response, whose constant parts their writers make once.
  lines(text: string): this {
    this.head += text;
    return this;
  }

  send(status: number, contentType: string | null, body: string | null): void {
    if (this.finished) return;
    if (this.sink !== null) return this.sink.failed(body ?? '');
    this.finished = true;
    this.status = status;
    this.abortSource = null;
    this.bodyGone = null;
    this.pendingType = contentType;
    this.pendingBody = body;
    writeAtTurnEnd(this);
  }

  // From the end of the loop turn (write-batch.ts): the response is decided, so a throw here is only logged.
  writeNow(): void {
    try {
      if (!this.aborted) {
        writing = this;
        this.res.cork(writeCorked);
      }
    } catch (err) {
      this.fail(err);
    }
    this.pendingBody = null;
    try {
      this.settle();
    } catch (err) {
      this.fail(err);
    }
  }

  // Only from writeCorked, inside res.cork.
  write(): void {
    const body = this.pendingBody;
    // uWS writes "HTTP/1.1 <status>\r\n"; the headers ride along after the status text.
    this.res.writeStatus(statusLine(this.status) + typeHead(this.pendingType) + this.head);
    if (this.method === 'HEAD') this.res.endWithoutBody(body === null ? 0 : Buffer.byteLength(body), this.closeConnection);
    else this.res.end(body ?? '', this.closeConnection);
  }

  // Streaming: the 200 head with `contentType` and this exchange's headers, and the first piece, now.
  // From then on, answers given through send() go to `sink`.
  beginStream(contentType: string, sink: StreamSink, first: string, filler: Uint8Array): boolean | null {
    if (this.finished) return null;
    this.status = 200;
    this.sink = sink;
    return this.streamPiece(`${statusLine(200)}\r\nContent-Type: ${contentType}${this.head}`, first, filler);
  }

  // One more piece of a streamed body, written at once, then `filler` as a write of its own: uWS sends a
  // chunk's closing CRLF only with the next write, so the filler's write is what makes the piece a whole
  // chunk on the wire now (stream-framing.ts). True when uWS passed both on, false when some of them wait
  // in uWS for the client, null when the client is gone.
  streamWrite(text: string, filler: Uint8Array): boolean | null {
    if (this.finished || this.sink === null) return null;
    return this.streamPiece(null, text, filler);
  }

  private streamPiece(status: string | null, text: string, filler: Uint8Array): boolean | null {
    try {
      writing = this;
      piece = text;
      pieceFiller = filler;
      if (status !== null) {
        this.res.cork(() => {
          this.res.writeStatus(status);
          this.writePiece();
        });
      } else this.res.cork(writePieceCorked);
      return pieceWritten;
    } finally {
      piece = '';
      pieceFiller = NO_FILLER;
    }
  }

  // Only from writePieceCorked, inside res.cork. Both writes happen whatever the first one said: what
  // uWS cannot pass on it keeps, in order.
  writePiece(): void {
    const written = this.res.write(piece);
    pieceWritten = (pieceFiller.length === 0 || this.res.write(pieceFiller)) && written;
  }

  // Ends a streamed response with its last piece, which the end's terminating chunk closes (no filler
  // follows it), and settles the exchange (the in-flight slot is held until now).
  endStream(last: string): void {
    if (this.finished) return;
    this.finished = true;
    this.abortSource = null;
    this.bodyGone = null;
    this.res.cork(() => this.res.end(last, this.closeConnection));
    this.settle();
  }

  // A reader too slow for the stream: the connection closes; uWS then reports the abort (onAborted),
  // which cancels the measurement and settles the exchange.
  cutOff(): void {
    if (!this.finished) this.res.close();
  }

  // The shutdown's grace ran out with this request unfinished: `answer` is its last word (a response, or
  // a stream's closing event), on a connection that then closes; whatever it still measures stops.
  endForShutdown(answer: (ex: Exchange) => void): void {
    this.closeConnection = true;
    const body = this.bodyGone;
    const measuring = this.abortSource;
    this.bodyGone = null;
    this.abortSource = null;
    answer(this);
    body?.gone();
    measuring?.abort();
  }

  json(status: number, value: unknown, contentType = 'application/json'): void {
    this.send(status, contentType, JSON.stringify(value));
  }
}
