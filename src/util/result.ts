// Errors travel as values: a parse either yields its value or a stable code plus a one-line message
// that the config loader can print as is.
export type Result<T, Code extends string> =
  | { ok: true; value: T }
  | { ok: false; code: Code; message: string };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail<Code extends string>(code: Code, message: string): { ok: false; code: Code; message: string } {
  return { ok: false, code, message };
}
