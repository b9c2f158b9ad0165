import { STATUS_CODES } from 'node:http';
import { normaliseIp } from '../net/ip';
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
    readonly rawPeer: string, // as uWS reports it: IPv6 text, IPv4 peers mapped
    readonly startedAt: bigint,
    private readonly onSettled: (ex: Exchange) => void,
  ) {
    this.client = normaliseIp(rawPeer) ?? rawPeer;
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
      this.res.writeStatus(`${status} ${STATUS_CODES[status] ?? ''}`);
      if (contentType !== null) this.res.writeHeader('Content-Type', contentType);
      for (const [name, value] of this.headers) this.res.writeHeader(name, value);
      if (this.method === 'HEAD') this.res.endWithoutBody(body === null ? 0 : Buffer.byteLength(body), this.closeConnection);
      else this.res.end(body ?? '', this.closeConnection);
    });
    this.settle();
  }

  json(status: number, value: unknown, contentType = 'application/json'): void {
    this.send(status, contentType, JSON.stringify(value));
  }
}
