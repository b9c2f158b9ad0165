import type { Logger } from '../log';
import type { FieldFault, Outcome, ToolFailure } from '../tools/outcome';
import type { OpenTool } from '../tools/registry';
import type { ToolEvents } from '../tools/tool';
import type { Answer } from '../util/answer';
import { CancelSource } from '../util/cancel';
import type { FieldError } from '../problems/codes';
import type { AgentMessage, HubMessage, RunMessage } from './run-messages';

// An agent's side of the measurements its hub hands it: each runs on this agent's own tools, under its own
// schema, target policy and budgets, exactly as a request to this agent's own API would; its events go
// back as they come, and it ends with one `done`.

interface Running {
  readonly cancel: CancelSource;
  readonly spends: Array<Answer<ToolFailure | null>>; // asked of the hub, in order, not answered yet
}

// A JSON Pointer back into the member names and indexes it was made from.
function pathOf(pointer: string): Array<string | number> {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((part) => (/^(0|[1-9][0-9]*)$/.test(part) ? Number(part) : part));
}

function invalid(errors: readonly FieldError[]): ToolFailure {
  const fields: FieldFault[] = errors.map((e) => ({ path: pathOf(e.pointer), message: e.message }));
  return { code: 'invalid-field', detail: 'this location refuses the request: it does not match its schema', fields };
}

export class AgentRuns {
  readonly #running = new Map<number, Running>();
  readonly #tools: Map<string, OpenTool>;

  constructor(tools: readonly OpenTool[], private readonly send: (message: AgentMessage) => void, private readonly log: Logger) {
    this.#tools = new Map(tools.map((open) => [open.tool.name, open]));
  }

  get running(): number {
    return this.#running.size;
  }

  received(message: HubMessage): void {
    if (message.type === 'run') return this.run(message);
    const running = this.#running.get(message.id);
    if (running === undefined) return; // it ended already: its `done` is on its way
    if (message.type === 'cancel') return running.cancel.abort();
    const paid = running.spends.shift();
    paid?.(message.failure === null ? null : (message.failure as unknown as ToolFailure));
  }

  // The connection is gone: nobody will read what is still running, so all of it stops.
  stopAll(): void {
    for (const running of this.#running.values()) running.cancel.abort();
  }

  private run(message: RunMessage): void {
    const { id } = message;
    if (this.#running.has(id)) return this.done(id, { ok: false, failure: { code: 'internal-error', detail: `measurement ${id} is running here already` } });
    const open = this.#tools.get(message.tool);
    if (open === undefined) return this.done(id, { ok: false, failure: { code: 'engine-unavailable', detail: `this location has no tool ${message.tool}` } });
    const { slot } = open;
    if ('unavailable' in slot) return this.done(id, { ok: false, failure: { code: 'engine-unavailable', detail: slot.unavailable } });
    const parsed = (message.stream ? open.validateStream : open.validate)(message.request);
    if (!parsed.ok) return this.done(id, { ok: false, failure: invalid(parsed.errors) });
    const running: Running = { cancel: new CancelSource(), spends: [] };
    this.#running.set(id, running);
    const events = message.stream ? this.events(id, running) : undefined;
    slot
      .run(parsed.value, running.cancel, events)
      .catch((err: unknown): Outcome<never> => {
        this.log.log('error', 'measurement failed', { id, tool: message.tool, error: (err as Error | undefined)?.stack ?? String(err) });
        return { ok: false, failure: { code: 'internal-error', detail: 'unexpected error at this location; this is a bug' } };
      })
      .then((outcome) => {
        this.#running.delete(id);
        for (const paid of running.spends.splice(0)) paid({ code: 'aborted', detail: 'the measurement ended' });
        this.done(id, outcome);
      });
  }

  private events(id: number, running: Running): ToolEvents {
    return {
      start: (info) => this.send({ type: 'event', id, event: 'start', data: info }),
      item: (event, data) => this.send({ type: 'event', id, event, data: data as Record<string, unknown> }),
      spend: (done) => {
        running.spends.push(done);
        this.send({ type: 'spend', id });
      },
    };
  }

  private done(id: number, outcome: Outcome<unknown>): void {
    const sent = outcome.ok ? { ok: true as const, value: outcome.value as Record<string, unknown> } : { ok: false as const, failure: outcome.failure as unknown as Record<string, unknown> };
    this.send({ type: 'done', id, outcome: sent });
  }
}
