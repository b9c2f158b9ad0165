import type { Deadlines } from './deadlines';
import type { Exchange } from './exchange';

// `bytes` may be uWS's own buffer, valid only until the callback returns: consume it there.
export type BodyOutcome = { kind: 'body'; bytes: Uint8Array } | { kind: 'too-large' } | { kind: 'timeout' } | { kind: 'aborted' };

// Calls `done` exactly once. A body that arrives whole in its first chunk (nearly every request) is
// handed over without a copy, synchronously inside uWS's data callback; a body in several chunks is
// copied chunk by chunk (uWS neuters each ArrayBuffer after its callback). Collection stops at the
// limit, whatever Content-Length claimed. The deadline covers the whole body: a client trickling a
// byte at a time would otherwise hold its in-flight slot for hours without tripping an idle timeout.
export function readBody(ex: Exchange, limit: number, deadlineMs: number, deadlines: Deadlines, done: (outcome: BodyOutcome) => void): void {
  let chunks: Buffer[] | null = null;
  let size = 0;
  let settled = false;
  const settle = (outcome: BodyOutcome) => {
    if (settled) return;
    settled = true;
    deadlines.remove(deadline);
    done(outcome);
  };
  const deadline = deadlines.add(deadlineMs, () => settle({ kind: 'timeout' }), ex.startedAt);
  ex.onAbort(() => settle({ kind: 'aborted' }));
  ex.onData((chunk, isLast) => {
    if (settled) return;
    size += chunk.byteLength;
    if (size > limit) return settle({ kind: 'too-large' });
    if (isLast && chunks === null) return settle({ kind: 'body', bytes: new Uint8Array(chunk) });
    (chunks ??= []).push(Buffer.from(chunk.slice(0)));
    if (isLast) settle({ kind: 'body', bytes: Buffer.concat(chunks, size) });
  });
}

export type JsonOutcome = { kind: 'object'; value: Record<string, unknown> } | { kind: 'invalid'; detail: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function parseJsonObject(bytes: Uint8Array): JsonOutcome {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { kind: 'invalid', detail: 'body is not valid UTF-8' };
  }
  if (text.trim() === '') return { kind: 'invalid', detail: 'body is empty; send a JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { kind: 'invalid', detail: `body is not valid JSON: ${(err as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid', detail: 'body must be a JSON object' };
  }
  return { kind: 'object', value: value as Record<string, unknown> };
}

// `application/json`, optionally with `charset=utf-8`; JSON has no other encoding (RFC 8259).
export function isJsonContentType(header: string): boolean {
  if (header === 'application/json') return true; // what nearly every client sends: no parsing
  const [type, ...params] = header.split(';').map((p) => p.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((p) => p === '' || p === 'charset=utf-8' || p === 'charset="utf-8"');
}
