import { MAX_BODY_BYTES, readAnswer, type Answer, type ClientError } from './answer.js';
import { NettoolsError } from './error.js';
import { LineSplitter } from './lines.js';
import { readRateLimit, type RateLimitInfo } from './rate-limit.js';
import type { Problem } from './types.js';

// What the stream's HTTP answer said, carried by every error thrown while reading it.
export interface StreamHead {
  status: number;
  rateLimit: RateLimitInfo;
  requestId: string | null;
  waits: number[];
}

// A stream's opening: its still unread body on 200 NDJSON; a refusal read whole; anything else (a server
// or proxy that answered JSON or HTML instead) is unexpected.
export async function openStream(response: Response, waits: number[], limit?: number): Promise<Answer<ReadableStream<Uint8Array>>> {
  if (!response.ok) return readAnswer(response, waits, limit);
  const common = { rateLimit: readRateLimit(response.headers), requestId: response.headers.get('x-request-id'), waits };
  const type = response.headers.get('content-type');
  if (type?.split(';')[0]?.trim().toLowerCase() === 'application/x-ndjson' && response.body !== null) return { ok: true, status: response.status, value: response.body, ...common };
  await response.body?.cancel();
  return { ok: false, error: { kind: 'unexpected', status: response.status, message: `HTTP ${response.status} with ${type ?? 'no content type'} where a stream was asked for` }, ...common };
}

interface WireEvent {
  event: string;
  data: unknown;
}

// One NDJSON line as the server writes it: an object with a string `event` and its `data`.
export function parseEventLine(line: string): WireEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || typeof (value as WireEvent).event !== 'string' || !('data' in value)) return null;
  return value as WireEvent;
}

// The events of one NDJSON response body as each line completes. Ends after `summary`; a `problem` event,
// an unreadable line, a line longer than `maxLine` bytes, a body that ends before the summary and the
// caller's abort are thrown as NettoolsError. Leaving early (break, return, throw in the loop) cancels the body.
// `located` (a request with `locations`): a location's `summary` and `problem` (data with `location`) are
// yielded like any event, and the stream ends after `locations`; a problem of the whole stream is thrown.
export async function* readEvents<E extends WireEvent>(body: ReadableStream<Uint8Array>, head: StreamHead, signal: AbortSignal, maxLine = MAX_BODY_BYTES, located = false): AsyncGenerator<E, void, undefined> {
  const fail = (error: ClientError) => new NettoolsError(error, head.rateLimit, head.requestId, head.waits);
  const reader = body.getReader();
  const lines = new LineSplitter();
  try {
    for (;;) {
      const chunk = await reader.read().catch((err: unknown) => {
        throw fail(signal.aborted ? { kind: 'aborted', message: 'aborted while reading the stream' } : { kind: 'network', message: `the stream broke off: ${describe(err)}` });
      });
      if (chunk.done) break;
      const complete = lines.push(chunk.value);
      if (lines.pendingBytes > maxLine) throw fail({ kind: 'unexpected', status: head.status, message: `a stream line longer than ${maxLine} bytes` });
      for (const line of complete) {
        if (line === '') continue;
        const event = parseEventLine(line);
        if (event === null) throw fail({ kind: 'unexpected', status: head.status, message: `not an event line: ${line.slice(0, 200)}` });
        if (event.event === 'problem' && !(located && atLocation(event))) throw fail({ kind: 'problem', status: (event.data as Problem).status ?? head.status, problem: event.data as Problem });
        // Lines already read are not handed out once the caller has aborted.
        if (signal.aborted) throw fail({ kind: 'aborted', message: 'aborted while reading the stream' });
        yield event as E;
        if (event.event === (located ? 'locations' : 'summary')) return;
      }
    }
    const rest = lines.end();
    const last = located ? 'its locations event' : 'its summary';
    throw fail({ kind: 'network', message: rest === '' ? `the stream ended before ${last}` : 'the stream ended in the middle of an event' });
  } finally {
    // Cancelling tells fetch the rest is not wanted; a body already ended or errored refuses quietly.
    reader.cancel().catch(() => undefined);
  }
}

const atLocation = (event: WireEvent) => typeof (event.data as { location?: unknown } | null)?.location === 'string';

function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}
