import { PROBLEM_TYPE_BASE, PROBLEMS, type FieldError, type ProblemCode } from '../problems/codes';

// A problem body as sent, byte for byte what JSON.stringify of the RFC 9457 object gives. A refused
// request is the commonest response under load, and building the object only to serialise it again
// cost more than answering: what is fixed per code is rendered once, field errors are written here,
// and only text that needs escaping goes through JSON.stringify.
// `extensions` must not reuse the core member names.

const HEADS = new Map<ProblemCode, { open: string; close: string }>();
function head(code: ProblemCode): { open: string; close: string } {
  let found = HEADS.get(code);
  if (found === undefined) {
    const { status, title } = PROBLEMS[code];
    const open = `{"type":${JSON.stringify(PROBLEM_TYPE_BASE + code)},"title":${JSON.stringify(title)},"status":${status},"detail":`;
    HEADS.set(code, (found = { open, close: `,"code":${JSON.stringify(code)}` }));
  }
  return found;
}

// What JSON.stringify may escape: quote, backslash, control characters, and surrogates (it escapes a
// lone one and keeps a pair; text with either is simply handed to it). One character class: this runs
// on every string of every refusal.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

export function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

function fieldErrorsJson(errors: readonly FieldError[]): string {
  let text = '[';
  for (let i = 0; i < errors.length; i++) {
    const e = errors[i] as FieldError;
    text += `${i === 0 ? '' : ','}{"pointer":${jsonString(e.pointer)},"message":${jsonString(e.message)}}`;
  }
  return text + ']';
}

// Plain {pointer, message} records only: anything else is left to JSON.stringify.
function isFieldErrors(value: unknown): value is FieldError[] {
  if (!Array.isArray(value)) return false;
  for (const e of value) {
    if (typeof e !== 'object' || e === null || Object.getPrototypeOf(e) !== Object.prototype) return false;
    const keys = Object.keys(e);
    if (keys.length !== 2 || keys[0] !== 'pointer' || keys[1] !== 'message') return false;
    if (typeof e.pointer !== 'string' || typeof e.message !== 'string') return false;
  }
  return true;
}

export function problemJson(code: ProblemCode, detail: string, extensions?: Record<string, unknown>): string {
  const { open, close } = head(code);
  let text = open + jsonString(detail) + close;
  if (extensions !== undefined) {
    for (const name of Object.keys(extensions)) {
      const raw = extensions[name];
      const value = isFieldErrors(raw) ? fieldErrorsJson(raw) : JSON.stringify(raw);
      if (value !== undefined) text += `,${jsonString(name)}:${value}`;
    }
  }
  return text + '}';
}
