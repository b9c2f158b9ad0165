import { refuse, type StageRefusal } from '../refusal';
import type { BodyBytes } from './read-body';
import type { Flow, Stage } from './runner';

export type JsonOutcome = { kind: 'object'; value: Record<string, unknown> } | { kind: 'refused'; refusal: StageRefusal };

const utf8 = new TextDecoder('utf-8', { fatal: true });

function invalid(detail: string): JsonOutcome {
  return { kind: 'refused', refusal: { code: 'invalid-json', detail } };
}

// The body as a JSON object; anything else (bad UTF-8, bad JSON, an array, a number) is refused.
export function parseJsonObject(bytes: BodyBytes): JsonOutcome {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return invalid('body is not valid UTF-8');
  }
  if (text.trim() === '') return invalid('body is empty; send a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return invalid(`body is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalid('body must be a JSON object');
  return { kind: 'object', value: value as Record<string, unknown> };
}

export interface ParseFlow extends Flow {
  bytes: BodyBytes | null;
  json: Record<string, unknown> | null;
}

export const PARSE: Stage<ParseFlow> = {
  name: 'parse',
  run(r, next) {
    const json = parseJsonObject(r.bytes as BodyBytes);
    if (json.kind === 'refused') return refuse(r.ex, json.refusal);
    r.json = json.value;
    next();
  },
};
