import { STATUS_CODES } from 'node:http';
import type { HttpResponse } from './uws';

export type Header = readonly [name: string, value: string];

// One request/response pair. uWS forbids touching `res` after an abort or after `end`, so every write
// goes through here, corked, and becomes a no-op once the exchange is settled.
export class Exchange {
  aborted = false;
  finished = false;
  status = 0;
  closeConnection = false;
  readonly headers: Header[] = [];
  private abortListeners: Array<() => void> = [];

  constructor(
    private readonly res: HttpResponse,
    readonly method: string,
    readonly path: string,
    readonly peer: string,
    readonly startedAt: bigint,
    private readonly onSettled: (ex: Exchange) => void,
  ) {
    res.onAborted(() => {
      if (this.finished) return;
      this.aborted = true;
      this.finished = true;
      for (const listener of this.abortListeners.splice(0)) listener();
      this.onSettled(this);
    });
  }

  get open(): boolean {
    return !this.finished;
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
      this.res.writeStatus(`${status} ${STATUS_CODES[status] ?? ''}`);
      if (contentType !== null) this.res.writeHeader('Content-Type', contentType);
      for (const [name, value] of this.headers) this.res.writeHeader(name, value);
      if (this.method === 'HEAD') this.res.endWithoutBody(body === null ? 0 : Buffer.byteLength(body), this.closeConnection);
      else this.res.end(body ?? '', this.closeConnection);
    });
    this.onSettled(this);
  }

  json(status: number, value: unknown, contentType = 'application/json'): void {
    this.send(status, contentType, JSON.stringify(value));
  }
}
