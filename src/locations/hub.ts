import { readCredential } from '../keys/api-key';
import type { AgentKeyRing } from '../keys/agent-key-ring';
import type { Logger } from '../log';
import { fail, ok, type Result } from '../util/result';
import type { Outcome } from '../tools/outcome';
import type { ToolEvents } from '../tools/tool';
import type { CancelToken } from '../util/cancel';
import type { OutputChecks } from './agent-output';
import { readHello } from './hello-schema';
import { CLOSE, MAX_BACKPRESSURE_BYTES, MAX_MESSAGES_PER_SECOND, type Welcome } from './protocol';
import { RemoteRuns, type RemoteRun, type RunPeer } from './remote-runs';
import { readAgentMessage } from './run-messages';
import type { LocationMetrics } from './metrics';
import { SharedCap, sharedCapMemory } from '../ratelimit/shared-cap';

// The hub's side of its agents, apart from the socket library: what is let in, who is listed, who is
// dropped. The HTTP layer turns uWS's events into these calls (http/agents-socket.ts).

// What the hub needs of one agent's socket.
export interface AgentPeer {
  send(text: string): void;
  bufferedBytes(): number;
  ping(): void;
  end(code: number, reason: string): void; // a close handshake
  terminate(): void; // no handshake: for a peer that has stopped answering
}

export interface LocationEntry {
  name: string;
  labels: Record<string, string>;
  tools: string[];
  version: string;
  connectedSince: string; // ISO 8601
}

// One upgraded connection, listed or not yet.
export interface AgentSession {
  readonly keyHash: string; // never the key itself
  readonly location: string; // the key's location: the hello must say the same
  readonly openedMs: number;
  lastHeardMs: number;
  entry: LocationEntry | null; // null until a good hello
  peer: AgentPeer | null; // null once closed
  readonly runs: Map<number, RemoteRun>; // measurements handed to it, by id
  windowStartMs: number; // its messages in the current second, against flooding
  windowMessages: number;
  pingSentAt: number | null; // performance.now() of the heartbeat ping not answered yet
}

// A new connection's session, before its hello.
export function newSession(keyHash: string, location: string, nowMs: number): AgentSession {
  return { keyHash, location, openedMs: nowMs, lastHeardMs: nowMs, entry: null, peer: null, runs: new Map(), windowStartMs: nowMs, windowMessages: 0, pingSentAt: null };
}

export type Admission = Result<{ keyHash: string; location: string }, 'invalid-agent-key' | 'too-many-agents'>;

export interface HubOptions {
  keys: AgentKeyRing;
  self: string; // the hub's own location name, which no agent may take
  maxAgents: number;
  timeoutMs: number;
  log: Logger;
  checks: OutputChecks; // what an agent's events and results must look like, per tool
  metrics?: LocationMetrics; // the heartbeat's round trip
  // The connections counted against maxAgents: with worker threads, every worker's (shared memory).
  count?: SharedCap;
  now?: () => number;
}

export class Hub {
  readonly #sessions = new Set<AgentSession>();
  readonly #listed = new Map<string, AgentSession>();
  readonly #now: () => number;
  readonly #runs: RemoteRuns;
  readonly #count: SharedCap;
  #elsewhere: (location: string) => boolean = () => false;
  #timer: NodeJS.Timeout | null = null;

  constructor(private readonly o: HubOptions) {
    this.#now = o.now ?? Date.now;
    this.#runs = new RemoteRuns(o.checks);
    this.#count = o.count ?? new SharedCap(sharedCapMemory(1), o.maxAgents);
    // A third of the timeout: a peer that misses two pings in a row is still within it.
    this.#timer = setInterval(() => this.tick(), Math.max(100, Math.floor(o.timeoutMs / 3)));
    this.#timer.unref();
  }

  get connected(): number {
    return this.#listed.size;
  }

  // Locations listed by the other hubs this one shares its agents with (relay.ts): a connection for one
  // of them replaces that one, as for a location listed here.
  shareWith(elsewhere: (location: string) => boolean): void {
    this.#elsewhere = elsewhere;
  }

  // At the upgrade, before a socket exists: the key, and room under the cap. A key whose location is
  // already listed will replace that connection, so it needs no room of its own.
  admit(authorization: readonly string[]): Admission {
    const credential = readCredential(authorization);
    if (credential.kind !== 'key') return fail('invalid-agent-key', credential.kind === 'none' ? 'no agent key' : `malformed: ${credential.why}`);
    const found = this.o.keys.lookup(credential.key);
    if (found.status !== 'valid') return fail('invalid-agent-key', `${found.status} agent key`);
    const { sha256, location } = found.record;
    const replaces = this.#listed.has(location) || this.#elsewhere(location);
    if (!replaces && this.#count.total >= this.o.maxAgents) return fail('too-many-agents', `this hub holds ${this.o.maxAgents} agents (NETTOOLS_MAX_AGENTS)`);
    return ok({ keyHash: sha256, location });
  }

  opened(session: AgentSession): void {
    this.#sessions.add(session);
    this.#count.add();
  }

  heard(session: AgentSession): void {
    session.lastHeardMs = this.#now();
  }

  // The answer to a heartbeat ping: a sign of life, and the round trip to the agent.
  pong(session: AgentSession): void {
    this.heard(session);
    if (session.pingSentAt === null) return;
    this.o.metrics?.roundTrip((performance.now() - session.pingSentAt) / 1000);
    session.pingSentAt = null;
  }

  // The first message must be a good hello for the key's location; after it, what the agent says of the
  // measurements it was handed. `text` is null for a binary message or one that is not UTF-8.
  message(session: AgentSession, text: string | null): void {
    this.heard(session);
    if (session.entry !== null) return this.measurementMessage(session, text);
    if (text === null) return this.end(session, CLOSE.policy, 'bad hello: not text');
    const hello = readHello(text);
    if (!hello.ok) return this.end(session, CLOSE.policy, `bad hello: ${hello.message}`);
    const { location, labels, tools, version } = hello.value;
    if (location !== session.location) return this.end(session, CLOSE.policy, `this key is for location ${session.location}`);
    if (location === this.o.self) return this.end(session, CLOSE.policy, `${location} is the hub's own location`);
    const previous = this.#listed.get(location);
    if (previous !== undefined) this.end(previous, CLOSE.replaced, 'a newer connection for this location replaced this one');
    session.entry = { name: location, labels, tools, version, connectedSince: new Date(this.#now()).toISOString() };
    this.#listed.set(location, session);
    this.send(session, { type: 'welcome', hub: this.o.self } satisfies Welcome);
    this.o.log.log('info', 'agent connected', { location, version, replaced: previous !== undefined || undefined });
  }

  // One measurement at a listed location; `location-offline` if it is not listed (any more).
  run(location: string, tool: string, request: Record<string, unknown>, cancel: CancelToken, events?: ToolEvents): Promise<Outcome<unknown>> {
    const session = this.#listed.get(location);
    if (session === undefined) return Promise.resolve({ ok: false, failure: { code: 'location-offline', detail: `location ${location} is not connected` } });
    return this.#runs.start(this.runPeer(session), tool, request, cancel, events);
  }

  private runPeer(session: AgentSession): RunPeer {
    return { location: session.location, runs: session.runs, send: (message) => this.send(session, message) };
  }

  // A listed agent's message about a measurement; one that breaks the protocol cuts it off, and every
  // measurement it holds ends as offline (never the hub's, never another location's).
  private measurementMessage(session: AgentSession, text: string | null): void {
    const now = this.#now();
    if (now - session.windowStartMs >= 1000) {
      session.windowStartMs = now;
      session.windowMessages = 0;
    }
    let why: string | null;
    if (++session.windowMessages > MAX_MESSAGES_PER_SECOND) why = `more than ${MAX_MESSAGES_PER_SECOND} messages in a second`;
    else if (text === null) why = 'a message that is not text';
    else {
      const message = readAgentMessage(text);
      why = message.ok ? this.#runs.received(this.runPeer(session), message.value) : `a malformed message (${message.message})`;
    }
    if (why === null) return;
    this.#runs.lost(this.runPeer(session), `was cut off (${why})`);
    this.end(session, CLOSE.policy, why);
  }

  closed(session: AgentSession, code: number): void {
    session.peer = null;
    this.#runs.lost(this.runPeer(session), 'went away');
    if (this.#sessions.delete(session)) this.#count.give();
    const entry = session.entry;
    if (entry === null || this.#listed.get(entry.name) !== session) return;
    this.#listed.delete(entry.name);
    this.o.log.log('info', 'agent disconnected', { location: entry.name, code });
  }

  has(location: string): boolean {
    return this.#listed.has(location);
  }

  // Another hub (another worker thread) lists this location with a newer connection: the agent dialled
  // again and landed there, and this connection is the stale one.
  superseded(entry: LocationEntry): void {
    const session = this.#listed.get(entry.name);
    if (session?.entry && session.entry.connectedSince < entry.connectedSince) this.end(session, CLOSE.replaced, 'a newer connection for this location replaced this one');
  }

  // The connected agents, by name.
  list(): LocationEntry[] {
    return [...this.#listed.values()].map((s) => s.entry as LocationEntry).sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  // After the agent keys file was read again: a connection whose key is gone or revoked ends.
  keysReloaded(): void {
    for (const session of this.#sessions) {
      if (this.o.keys.lookupHash(session.keyHash).status !== 'valid') this.end(session, CLOSE.revoked, 'agent key revoked');
    }
  }

  // Shutdown: every agent is told, and no timer is left.
  close(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    for (const session of this.#sessions) this.end(session, CLOSE.goingAway, 'hub shutting down');
  }

  // Pings each live connection and drops the silent and the one that never said hello.
  tick(): void {
    const now = this.#now();
    for (const session of this.#sessions) {
      const peer = session.peer;
      if (peer === null) continue;
      if (session.entry === null && now - session.openedMs > this.o.timeoutMs) this.end(session, CLOSE.policy, 'no hello in time');
      else if (now - session.lastHeardMs > this.o.timeoutMs) this.drop(session, 'silent');
      else {
        session.pingSentAt = performance.now();
        peer.ping();
      }
    }
  }

  private send(session: AgentSession, message: object): void {
    const peer = session.peer;
    if (peer === null) return;
    if (peer.bufferedBytes() > MAX_BACKPRESSURE_BYTES) return this.end(session, CLOSE.backpressure, 'too much unread');
    peer.send(JSON.stringify(message));
  }

  private end(session: AgentSession, code: number, reason: string): void {
    const peer = session.peer;
    if (peer === null) return;
    this.o.log.log(code === CLOSE.goingAway || code === CLOSE.replaced ? 'info' : 'warn', 'agent connection ended', { location: session.location, code, reason });
    peer.end(code, reason);
  }

  private drop(session: AgentSession, why: string): void {
    const peer = session.peer;
    if (peer === null) return;
    this.o.log.log('warn', 'agent dropped', { location: session.location, why });
    peer.terminate();
  }
}
