import type { Validate } from '../../validation/validator';
import type { StageRefusal } from '../refusal';

// The request as the tool takes it (defaulted and normalised), or why the body does not match its schema.
export function validateRequest<Req>(validate: Validate<Req>, body: Record<string, unknown>): { ok: true; request: Req } | { ok: false; refusal: StageRefusal } {
  const parsed = validate(body);
  if (parsed.ok) return { ok: true, request: parsed.value };
  return { ok: false, refusal: { code: 'validation-failed', detail: 'the request body does not match the schema; see errors', errors: parsed.errors } };
}
