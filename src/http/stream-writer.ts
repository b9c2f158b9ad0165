import type { Exchange, StreamSink } from './exchange';
import type { StreamMetrics } from './stream-metrics';

export type StreamMode = 'ndjson' | 'sse';

// Limits of every stream. An object, not constants, so that a test can lower them.
export const STREAM_LIMITS = {
  // A reader this far behind is cut off. Counted from the first write uWS could not pass on whole to the
  // next one it could (the client caught up): an upper bound of what waits in uWS for the client.
  cutOffBytes: 256 * 1024,
  // An SSE stream without an event this long gets a comment, so that proxies and clients keep it open.
  keepAliveMs: 15_000,
};

const CONTENT_TYPES: Readonly<Record<StreamMode, string>> = {
  ndjson: 'application/x-ndjson',
  sse: 'text/event-stream; charset=utf-8',
};

// One streamed tool response: events framed as NDJSON lines ({"event", "data"}) or as SSE (event:, id:,
// data:), written the moment they come through the exchange; the head goes out with the first. Nothing is
// written once the client is gone or the stream has ended.
export class EventStream implements StreamSink {
  private count = 0;
  private waiting = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopListening: (() => void) | null = null;
  ended = false;

  constructor(
    private readonly ex: Exchange,
    private readonly mode: StreamMode,
    private readonly tool: string,
    private readonly metrics: StreamMetrics,
  ) {}

  get started(): boolean {
    return this.count > 0;
  }

  // `json`: the event's data, serialised.
  event(name: string, json: string): void {
    if (this.ended) return;
    const id = ++this.count;
    const text = this.mode === 'ndjson' ? `{"event":"${name}","data":${json}}\n` : `event: ${name}\nid: ${id}\ndata: ${json}\n\n`;
    const written = id === 1 ? this.begin(text) : this.ex.streamWrite(text);
    if (written === null) return this.close();
    this.metrics.sent(this.tool);
    this.timer?.refresh();
    this.pressure(written, text);
  }

  // The last event was sent: the response ends.
  end(): void {
    if (this.ended) return;
    this.close();
    this.ex.endStream();
  }

  // A failure after the head (a fault on the request's path): one problem event, and the end.
  failed(problemBody: string): void {
    this.event('problem', problemBody);
    this.end();
  }

  private begin(text: string): boolean | null {
    this.ex.header('Cache-Control', 'no-store').header('X-Accel-Buffering', 'no');
    this.stopListening = this.ex.onAbort(() => this.close());
    this.metrics.opened(this.tool);
    if (this.mode === 'sse') this.timer = setTimeout(() => this.keepAlive(), STREAM_LIMITS.keepAliveMs);
    return this.ex.beginStream(CONTENT_TYPES[this.mode], this, text);
  }

  private keepAlive(): void {
    if (this.ended) return;
    const text = ': keep-alive\n\n';
    const written = this.ex.streamWrite(text);
    if (written === null) return this.close();
    (this.timer as NodeJS.Timeout).refresh();
    this.pressure(written, text);
  }

  private pressure(written: boolean, text: string): void {
    if (written) {
      this.waiting = 0;
      return;
    }
    this.waiting += Buffer.byteLength(text);
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
