import { NO_FILLER, type Exchange, type StreamSink } from './exchange';
import type { StreamMetrics } from './stream-metrics';
import { FRAMINGS, type Framing, type StreamMode } from './stream-framing';

export type { StreamMode } from './stream-framing';

// Limits of every stream. An object, not constants, so that a test can lower them.
export const STREAM_LIMITS = {
  // A reader this far behind is cut off. Counted from the first write uWS could not pass on whole to the
  // next one it could (the client caught up): an upper bound of what waits in uWS for the client.
  cutOffBytes: 256 * 1024,
  // An SSE stream without an event this long gets a comment, so that proxies and clients keep it open.
  keepAliveMs: 15_000,
};

// One streamed tool response: events framed as NDJSON lines ({"event", "data"}) or as SSE (event:, id:,
// data:), each a whole chunk on the wire the moment it comes through the exchange (stream-framing.ts);
// the head goes out with the first, the end with the last. Nothing is written once the client is gone or
// the stream has ended.
export class EventStream implements StreamSink {
  private count = 0;
  private waiting = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopListening: (() => void) | null = null;
  private readonly framing: Framing;
  private readonly sent: { count: number };
  ended = false;

  constructor(
    private readonly ex: Exchange,
    mode: StreamMode,
    private readonly tool: string,
    private readonly metrics: StreamMetrics,
  ) {
    this.framing = FRAMINGS[mode];
    this.sent = metrics.eventsSent(tool);
  }

  get started(): boolean {
    return this.count > 0;
  }

  // An event that others follow. `json`: the event's data, serialised.
  event(name: string, json: string): void {
    if (this.ended) return;
    const first = this.count === 0;
    const text = this.frame(name, json);
    const filler = this.framing.filler;
    const written = first ? this.begin(text, filler) : this.ex.streamWrite(text, filler);
    if (written === null) return this.close();
    this.sent.count++;
    this.timer?.refresh();
    this.pressure(written, text, filler);
  }

  // The last event, written with the end of the response.
  end(name: string, json: string): void {
    if (this.ended) return;
    if (!this.started) {
      // Nothing was written yet: the head goes out with it, and nothing follows it.
      if (this.begin(this.frame(name, json), NO_FILLER) === null) return this.close();
      this.sent.count++;
      this.close();
      return this.ex.endStream('');
    }
    const text = this.frame(name, json);
    this.close();
    this.sent.count++;
    this.ex.endStream(text);
  }

  // A failure after the head (a fault on the request's path): one problem event, and the end.
  failed(problemBody: string): void {
    this.end('problem', problemBody);
  }

  // The event as text; after the first, led by what completes the filler before it.
  private frame(name: string, json: string): string {
    const id = ++this.count;
    const text = this.framing.event(name, id, json);
    return id === 1 ? text : this.framing.resume + text;
  }

  private begin(text: string, filler: Uint8Array): boolean | null {
    this.ex.header('Cache-Control', 'no-store').header('X-Accel-Buffering', 'no');
    this.stopListening = this.ex.onAbort(() => this.close());
    this.metrics.opened(this.tool);
    if (this.framing.keepAlive !== null) this.timer = setTimeout(() => this.keepAlive(), STREAM_LIMITS.keepAliveMs);
    return this.ex.beginStream(this.framing.contentType, this, text, filler);
  }

  private keepAlive(): void {
    if (this.ended) return;
    const text = this.framing.resume + (this.framing.keepAlive as string);
    const filler = this.framing.filler;
    const written = this.ex.streamWrite(text, filler);
    if (written === null) return this.close();
    (this.timer as NodeJS.Timeout).refresh();
    this.pressure(written, text, filler);
  }

  // The bytes are counted only when some wait: a piece written whole costs no pass over its text.
  private pressure(written: boolean, text: string, filler: Uint8Array): void {
    if (written) {
      this.waiting = 0;
      return;
    }
    this.waiting += Buffer.byteLength(text) + filler.length;
    if (this.waiting <= STREAM_LIMITS.cutOffBytes) return;
    this.metrics.cutOff(this.tool);
    this.close();
    this.ex.cutOff();
  }

  // Once: the stream is over, ended by us or by the client going away.
  private close(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.stopListening?.();
    this.stopListening = null;
    if (this.count > 0) this.metrics.closed(this.tool);
  }
}
