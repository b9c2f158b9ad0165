import type { Validate } from '../../validation/validator';
import { refuse, type StageRefusal } from '../refusal';
import type { Flow, Stage } from './runner';

// The request as the tool takes it (defaulted and normalised), or why the body does not match its schema.
export function validateRequest<Req>(validate: Validate<Req>, body: Record<string, unknown>): { ok: true; request: Req } | { ok: false; refusal: StageRefusal } {
  const parsed = validate(body);
  if (parsed.ok) return { ok: true, request: parsed.value };
  const { errors, unlisted } = parsed;
  if (unlisted === 0) return { ok: false, refusal: { code: 'validation-failed', detail: 'the request body does not match the schema; see errors', errors } };
  const detail = `the request body does not match the schema; errors lists the first ${errors.length} of ${errors.length + unlisted}`;
  return { ok: false, refusal: { code: 'validation-failed', detail, errors, unlisted } };
}

export interface ValidateFlow extends Flow {
  readonly validate: Validate<unknown>;
  json: Record<string, unknown> | null;
  request: unknown;
}

export const VALIDATE: Stage<ValidateFlow> = {
  name: 'validate',
  run(r, next) {
    const valid = validateRequest(r.validate, r.json as Record<string, unknown>);
    if (!valid.ok) return refuse(r.ex, valid.refusal);
    r.request = valid.request;
    next();
  },
};
