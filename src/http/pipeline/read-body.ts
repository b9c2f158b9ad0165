import type { Deadline, Deadlines } from '../deadlines';
import type { BodySink, Exchange } from '../exchange';
import { refuse, type StageRefusal } from '../refusal';
import type { PipelineContext } from './context';
import type { Flow, Stage } from './runner';

export const BODY_LIMIT = 4096;

// `bytes` may be uWS's own buffer, valid only until the callback returns: consume it there. A body in
// one chunk is that ArrayBuffer itself (the decoder reads it as it is; a view would be one more object a
// request), a body in several a Buffer of them joined.
export type BodyBytes = ArrayBuffer | Uint8Array;
export type BodyOutcome = { kind: 'body'; bytes: BodyBytes } | { kind: 'refused'; refusal: StageRefusal } | { kind: 'aborted' };

// What the headers already tell: a body that is not JSON, or announces more than the limit, is not read.
export function checkBodyHeaders(contentType: string, contentLength: string): StageRefusal | null {
  if (!isJsonContentType(contentType)) return { code: 'unsupported-media-type', contentType };
  if (contentLength !== '' && !(Number(contentLength) <= BODY_LIMIT)) return { code: 'payload-too-large', limit: BODY_LIMIT };
  return null;
}

// Calls `done` exactly once. A body that arrives whole in its first chunk (nearly every request) is
// handed over without a copy, synchronously inside uWS's data callback; a body in several chunks is
// copied chunk by chunk (uWS neuters each ArrayBuffer after its callback). Collection stops at the
// limit, whatever Content-Length claimed. The deadline covers the whole body: a client trickling a
// byte at a time would otherwise hold its in-flight slot for hours without tripping an idle timeout.
export function readBody(ex: Exchange, deadlineMs: number, deadlines: Deadlines, done: (outcome: BodyOutcome) => void): void {
  ex.readBody(new BodyReader(ex, deadlineMs, deadlines, done));
}

const ABORTED: BodyOutcome = { kind: 'aborted' };
const TOO_LARGE: BodyOutcome = { kind: 'refused', refusal: { code: 'payload-too-large', limit: BODY_LIMIT } };

// One object a request, not a function for each thing that can end the read.
class BodyReader implements BodySink {
  private chunks: Buffer[] | null = null;
  private size = 0;
  private settled = false;
  private readonly deadline: Deadline;

  constructor(
    private readonly ex: Exchange,
    deadlineMs: number,
    private readonly deadlines: Deadlines,
    private readonly done: (outcome: BodyOutcome) => void,
  ) {
    this.deadline = deadlines.add(deadlineMs, () => this.settle({ kind: 'refused', refusal: { code: 'request-timeout', timeoutMs: deadlineMs } }), ex.startedAt);
  }

  data(chunk: ArrayBuffer, isLast: boolean): void {
    if (this.settled) return;
    this.size += chunk.byteLength;
    if (this.size > BODY_LIMIT) return this.settle(TOO_LARGE);
    if (isLast && this.chunks === null) return this.settle({ kind: 'body', bytes: chunk });
    (this.chunks ??= []).push(Buffer.from(chunk.slice(0)));
    if (isLast) this.settle({ kind: 'body', bytes: Buffer.concat(this.chunks, this.size) });
  }

  gone(): void {
    this.settle(ABORTED);
  }

  private settle(outcome: BodyOutcome): void {
    if (this.settled) return;
    this.settled = true;
    this.deadlines.remove(this.deadline);
    // Reached from uWS's data and abort callbacks and from the deadline timer: nothing above catches.
    try {
      this.done(outcome);
    } catch (err) {
      this.ex.fail(err);
    }
  }
}

// `application/json`, optionally with `charset=utf-8`; JSON has no other encoding (RFC 8259).
export function isJsonContentType(header: string): boolean {
  if (header === 'application/json') return true; // what nearly every client sends: no parsing
  const [type, ...params] = header.split(';').map((p) => p.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((p) => p === '' || p === 'charset=utf-8' || p === 'charset="utf-8"');
}

// What the body stages need of a route's request record. `early`: what the headers already refuse.
export interface BodyFlow extends Flow {
  readonly ctx: PipelineContext;
  early: StageRefusal | null;
  reading: boolean; // a reader is attached
  arrived: BodyOutcome | null; // a body that came while an earlier stage was still deciding (a copy)
  waiting: ((body: BodyOutcome) => void) | null; // the read-body stage, when it came first
  bytes: BodyBytes | null; // the body, valid only inside the stage that took it and those it calls on
}

export const CHECK_BODY_HEADERS: Stage<BodyFlow> = {
  name: 'check-body-headers',
  run(r, next) {
    if (r.early !== null) return refuse(r.ex, r.early);
    next();
  },
};

// Attaches the reader. Called by the read-body stage, or earlier, before uWS's handler returns, when an
// earlier stage waits on a shared store (uWS hands the body only to a reader attached by then).
export function startReading(r: BodyFlow): void {
  if (r.reading) return;
  r.reading = true;
  readBody(r.ex, r.ctx.config.bodyTimeoutMs, r.ctx.deadlines, (body) => {
    const waiting = r.waiting;
    if (waiting !== null) return waiting(body);
    // A body in uWS's own buffer is gone once its callback returns, and this one is used later: copy it.
    r.arrived = body.kind === 'body' ? { kind: 'body', bytes: body.bytes.slice() } : body;
  });
}

// Nearly every body comes in one packet after the handler returned: the stages after this one then run
// inside uWS's data callback, on uWS's own buffer, with no promise and no copy.
export const READ_BODY: Stage<BodyFlow> = {
  name: 'read-body',
  run(r, next) {
    const take = (body: BodyOutcome) => {
      r.waiting = null;
      if (body.kind === 'aborted') return;
      if (body.kind === 'refused') return refuse(r.ex, body.refusal);
      r.bytes = body.bytes;
      next();
      r.bytes = null;
    };
    if (r.arrived !== null) return take(r.arrived);
    r.waiting = take;
    startReading(r);
  },
};
