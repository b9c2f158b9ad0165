import Ajv2020 from 'ajv/dist/2020';
import { fail, ok, type Result } from '../util/result';

// What crosses a hub-agent connection once the agent is listed: measurements the hub hands out, and what
// the agent says back about each. Every measurement has an id the hub chose; the agent answers each `run`
// with events and exactly one `done`, also after a `cancel` (then with its `aborted` outcome).

// hub -> agent
export interface RunMessage {
  type: 'run';
  id: number;
  tool: string;
  request: Record<string, unknown>; // the caller's body without `locations`: the agent validates it itself
  stream: boolean; // the streamed request's bounds apply, and events are wanted
}
export interface CancelMessage {
  type: 'cancel';
  id: number;
}
export interface SpentMessage {
  type: 'spent'; // the answer to a `spend`: null, paid; else the failure the measurement ends with
  id: number;
  failure: Record<string, unknown> | null;
}
export type HubMessage = RunMessage | CancelMessage | SpentMessage;

// agent -> hub
export interface EventMessage {
  type: 'event';
  id: number;
  event: string; // `start` or one of the tool's item events
  data: Record<string, unknown>;
}
export interface SpendMessage {
  type: 'spend'; // a measurement that pays as it goes asks the caller's bucket for one more token
  id: number;
}
export interface DoneMessage {
  type: 'done';
  id: number;
  outcome: { ok: true; value: Record<string, unknown> } | { ok: false; failure: Record<string, unknown> };
}
export type AgentMessage = EventMessage | SpendMessage | DoneMessage;

const ID = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const OBJECT = { type: 'object' } as const;

// The envelope only: what is inside (an event's data, an outcome) is checked against the tool's own
// schemas by whoever knows the tool.
const AGENT_MESSAGE_SCHEMA = {
  type: 'object',
  required: ['type', 'id'],
  oneOf: [
    { additionalProperties: false, required: ['event', 'data'], properties: { type: { const: 'event' }, id: ID, event: { type: 'string', pattern: '^[a-z][a-z-]{0,31}$' }, data: OBJECT } },
    { additionalProperties: false, properties: { type: { const: 'spend' }, id: ID } },
    {
      additionalProperties: false,
      required: ['outcome'],
      properties: {
        type: { const: 'done' },
        id: ID,
        outcome: {
          oneOf: [
            { type: 'object', additionalProperties: false, required: ['ok', 'value'], properties: { ok: { const: true }, value: OBJECT } },
            { type: 'object', additionalProperties: false, required: ['ok', 'failure'], properties: { ok: { const: false }, failure: OBJECT } },
          ],
        },
      },
    },
  ],
} as const;

const HUB_MESSAGE_SCHEMA = {
  type: 'object',
  required: ['type', 'id'],
  oneOf: [
    { additionalProperties: false, required: ['tool', 'request', 'stream'], properties: { type: { const: 'run' }, id: ID, tool: { type: 'string', pattern: '^[a-z0-9-]{1,32}$' }, request: OBJECT, stream: { type: 'boolean' } } },
    { additionalProperties: false, properties: { type: { const: 'cancel' }, id: ID } },
    { additionalProperties: false, required: ['failure'], properties: { type: { const: 'spent' }, id: ID, failure: { type: ['object', 'null'] } } },
  ],
} as const;

const ajv = new Ajv2020({ allErrors: false, strict: false });
const agentMessage = ajv.compile<AgentMessage>(AGENT_MESSAGE_SCHEMA);
const hubMessage = ajv.compile<HubMessage>(HUB_MESSAGE_SCHEMA);

function read<T>(text: string, validate: typeof agentMessage | typeof hubMessage): Result<T, 'bad-message'> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('bad-message', 'not JSON');
  }
  if (validate(value)) return ok(value as T);
  const first = validate.errors?.[0];
  return fail('bad-message', `${first?.instancePath || '/'} ${first?.message ?? 'is not a message of this protocol'}`);
}

export const readAgentMessage = (text: string): Result<AgentMessage, 'bad-message'> => read<AgentMessage>(text, agentMessage);
export const readHubMessage = (text: string): Result<HubMessage, 'bad-message'> => read<HubMessage>(text, hubMessage);
