import WebSocket from 'ws';
import type { Logger } from '../log';
import type { OpenTool } from '../tools/registry';
import { AgentRuns } from './agent-runs';
import { backoffMs } from './backoff';
import type { Hello } from './hello-schema';
import { CLOSE, MAX_MESSAGE_BYTES, type Welcome } from './protocol';
import { readHubMessage } from './run-messages';

export interface AgentLinkOptions {
  url: URL;
  key: string;
  hello: Hello;
  timeoutMs: number; // the hub is given up after this long without a ping
  reconnectMs: number;
  reconnectMaxMs: number;
  log: Logger;
  tools: readonly OpenTool[]; // what runs the measurements the hub hands this agent
  random?: () => number;
}

// An agent's one connection to its hub: dial, say hello, answer pings (ws answers them itself), and
// dial again with backoff whenever the connection ends, until stopped.
export class AgentLink {
  #ws: WebSocket | null = null;
  #attempt = 0;
  #welcomed = 0; // how many times the hub took this agent in
  #stopping: (() => void) | null = null;
  #stopped = false;
  #retry: NodeJS.Timeout | null = null;
  #silence: NodeJS.Timeout | null = null;
  #lastError = '';
  #welcome = false; // on this connection: the hub took this agent in
  readonly #runs: AgentRuns;

  constructor(private readonly o: AgentLinkOptions) {
    this.#runs = new AgentRuns(o.tools, (message) => {
      const ws = this.#ws;
      if (ws !== null && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    }, o.log);
  }

  start(): void {
    this.dial();
  }

  // Closes the connection with a close handshake (cut short if the hub does not answer in time).
  stop(): Promise<void> {
    this.#stopped = true;
    if (this.#retry !== null) clearTimeout(this.#retry);
    this.#runs.stopAll();
    const ws = this.#ws;
    if (ws === null) return Promise.resolve();
    return new Promise((resolve) => {
      const cut = setTimeout(() => ws.terminate(), 2000);
      this.#stopping = () => {
        clearTimeout(cut);
        resolve();
      };
      ws.close(CLOSE.goingAway, 'agent stopping');
    });
  }

  private dial(): void {
    const ws = new WebSocket(this.o.url, {
      headers: { Authorization: `Bearer ${this.o.key}` },
      maxPayload: MAX_MESSAGE_BYTES,
      handshakeTimeout: this.o.timeoutMs,
      perMessageDeflate: false,
      followRedirects: false,
    });
    this.#ws = ws;
    this.#lastError = '';
    this.watch();
    ws.on('open', () => ws.send(JSON.stringify(this.o.hello)));
    ws.on('ping', () => this.watch());
    ws.on('message', (data, isBinary) => this.received(ws, isBinary ? null : data.toString()));
    ws.on('error', (err) => void (this.#lastError = err.message));
    ws.on('close', (code, reason) => this.closed(code, reason.toString()));
  }

  // A welcome first, then measurements; anything else means the two ends do not speak the same protocol.
  private received(ws: WebSocket, text: string | null): void {
    if (text === null) return ws.close(CLOSE.policy, 'unexpected message');
    if (this.#welcome) {
      const message = readHubMessage(text);
      if (!message.ok) return ws.close(CLOSE.policy, `bad message: ${message.message}`);
      return this.#runs.received(message.value);
    }
    const message = welcomeIn(text);
    if (message === null) return ws.close(CLOSE.policy, 'unexpected message');
    this.#attempt = 0;
    const fields = { hub: this.o.url.href, hubLocation: message.hub, location: this.o.hello.location };
    this.o.log.log('info', this.#welcomed === 0 ? 'connected to hub' : 'reconnected to hub', fields);
    this.#welcomed++;
    this.#welcome = true;
  }

  // A hub that stops pinging is gone even when no close arrives (a cut cable, a NAT that forgot us).
  private watch(): void {
    if (this.#silence !== null) clearTimeout(this.#silence);
    const ws = this.#ws;
    this.#silence = setTimeout(() => {
      this.#lastError = `no ping from the hub in ${this.o.timeoutMs} ms`;
      ws?.terminate();
    }, this.o.timeoutMs);
  }

  private closed(code: number, reason: string): void {
    if (this.#silence !== null) clearTimeout(this.#silence);
    this.#silence = null;
    this.#ws = null;
    this.#welcome = false;
    // Nobody is left to read what still runs: it stops (the hub has ended it as offline already).
    this.#runs.stopAll();
    if (this.#stopped) return this.#stopping?.();
    const waitMs = backoffMs(this.#attempt++, this.o.reconnectMs, this.o.reconnectMaxMs, this.o.random);
    this.o.log.log('warn', 'hub connection ended; dialling again', { code, reason: reason || undefined, error: this.#lastError || undefined, retryInMs: waitMs });
    this.#retry = setTimeout(() => {
      this.#retry = null;
      this.dial();
    }, waitMs);
  }
}

function welcomeIn(text: string): Welcome | null {
  try {
    const value = JSON.parse(text) as Partial<Welcome> | null;
    return value?.type === 'welcome' && typeof value.hub === 'string' ? (value as Welcome) : null;
  } catch {
    return null;
  }
}
