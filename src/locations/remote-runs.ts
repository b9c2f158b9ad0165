import type { Outcome, ToolFailure } from '../tools/outcome';
import type { ToolEvents } from '../tools/tool';
import type { CancelToken } from '../util/cancel';
import type { OutputChecks, ToolOutputCheck } from './agent-output';
import type { AgentMessage, DoneMessage, HubMessage } from './run-messages';

// The hub's side of measurements handed to agents: each is sent as a `run`, its events are checked and
// passed on, and it ends with the agent's `done`, or with `location-offline` when the agent goes away.

export interface RemoteRun {
  readonly check: ToolOutputCheck;
  readonly stream: boolean;
  readonly events: ToolEvents | undefined;
  finish: ((outcome: Outcome<unknown>) => void) | null; // null once answered (the caller went away first)
  stopListening: () => void;
}

// What the runs need of one agent's connection.
export interface RunPeer {
  readonly location: string;
  readonly runs: Map<number, RemoteRun>;
  send(message: HubMessage): void;
}

// Measurements one agent may hold at once; more are refused as busy, for that location only.
export const MAX_RUNS_PER_AGENT = 64;

const ABORTED_FAILURE: ToolFailure = { code: 'aborted', detail: 'the caller went away' };
const ABORTED: Outcome<never> = { ok: false, failure: ABORTED_FAILURE };

function offline(location: string, why: string): Outcome<never> {
  return { ok: false, failure: { code: 'location-offline', detail: `location ${location} ${why} before its measurement was whole` } };
}

export class RemoteRuns {
  #next = 1;

  constructor(private readonly checks: OutputChecks) {}

  // One measurement at an agent. Resolves once: with the agent's outcome, `aborted` when `cancel` fires
  // first (the agent is told to stop), or `location-offline` when the agent is lost.
  start(peer: RunPeer, tool: string, request: Record<string, unknown>, cancel: CancelToken, events?: ToolEvents): Promise<Outcome<unknown>> {
    const check = this.checks.tool(tool);
    if (check === undefined) return Promise.resolve({ ok: false, failure: { code: 'internal-error', detail: `no output checks for tool ${tool}; this is a bug` } });
    if (peer.runs.size >= MAX_RUNS_PER_AGENT) {
      return Promise.resolve({ ok: false, failure: { code: 'engine-busy', detail: `location ${peer.location} has ${MAX_RUNS_PER_AGENT} measurements in flight`, retryAfterSeconds: 1 } });
    }
    const id = this.#next++;
    return new Promise((resolve) => {
      const run: RemoteRun = { check, stream: events !== undefined, events, finish: resolve, stopListening: () => undefined };
      peer.runs.set(id, run);
      peer.send({ type: 'run', id, tool, request, stream: run.stream });
      // The entry stays until the agent's `done`, so that what it sends meanwhile has a place.
      run.stopListening = cancel.onAbort(() => {
        if (run.finish === null) return;
        run.finish = null;
        peer.send({ type: 'cancel', id });
        resolve(ABORTED);
      });
    });
  }

  // One message from a listed agent. Returns why it breaks the protocol (the connection is then cut, and
  // its measurements end as offline), or null.
  received(peer: RunPeer, message: AgentMessage): string | null {
    const run = peer.runs.get(message.id);
    if (run === undefined) return `no measurement ${message.id} is running there`;
    switch (message.type) {
      case 'event':
        if (run.events === undefined) return `measurement ${message.id} is not streamed`;
        if (!run.check.event(message.event, message.data)) return `event ${message.event} of measurement ${message.id} does not fit the tool's schema`;
        if (run.finish === null) return null;
        if (message.event === 'start') run.events.start(message.data);
        else run.events.item(message.event, message.data);
        return null;
      case 'spend':
        if (run.events === undefined) return `measurement ${message.id} is not streamed`;
        if (run.finish === null) peer.send({ type: 'spent', id: message.id, failure: ABORTED_FAILURE as unknown as Record<string, unknown> });
        else run.events.spend((paid) => peer.send({ type: 'spent', id: message.id, failure: paid instanceof Error ? internal(paid) : (paid as unknown as Record<string, unknown> | null) }));
        return null;
      case 'done':
        return this.done(peer, run, message);
    }
  }

  private done(peer: RunPeer, run: RemoteRun, message: DoneMessage): string | null {
    const { outcome } = message;
    let checked: Outcome<unknown>;
    if (outcome.ok) {
      if (!run.check.value(run.stream, outcome.value)) return `the result of measurement ${message.id} does not fit the tool's schema`;
      checked = outcome;
    } else {
      const failure = this.checks.failure(outcome.failure);
      if (failure === null) return `the failure of measurement ${message.id} is not one this API has`;
      checked = { ok: false, failure };
    }
    peer.runs.delete(message.id);
    run.stopListening();
    const finish = run.finish;
    run.finish = null;
    finish?.(checked);
    return null;
  }

  // The agent is gone (closed, silent, or cut off): every measurement still open there ends as offline.
  lost(peer: RunPeer, why: string): void {
    for (const run of peer.runs.values()) {
      run.stopListening();
      const finish = run.finish;
      run.finish = null;
      finish?.(offline(peer.location, why));
    }
    peer.runs.clear();
  }
}

function internal(err: Error): Record<string, unknown> {
  const failure: ToolFailure = { code: 'internal-error', detail: `paying for the stream failed: ${err.message}` };
  return failure as unknown as Record<string, unknown>;
}
