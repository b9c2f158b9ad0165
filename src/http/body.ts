import type { Exchange } from './exchange';

export type BodyOutcome = { kind: 'body'; bytes: Buffer } | { kind: 'too-large' } | { kind: 'timeout' } | { kind: 'aborted' };

// Copies every chunk (uWS neuters the ArrayBuffer after the callback) and stops collecting at the limit,
// whatever Content-Length claimed. The deadline covers the whole body: a client trickling a byte at a
// time would otherwise hold its in-flight slot for hours without ever tripping an idle timeout.
export function readBody(ex: Exchange, limit: number, deadlineMs: number): Promise<BodyOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const timer = setTimeout(() => settle({ kind: 'timeout' }), deadlineMs);
    const settle = (outcome: BodyOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    ex.onAbort(() => settle({ kind: 'aborted' }));
    ex.onData((chunk, isLast) => {
      if (settled) return;
      size += chunk.byteLength;
      if (size > limit) return settle({ kind: 'too-large' });
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) settle({ kind: 'body', bytes: Buffer.concat(chunks, size) });
    });
  });
}

export type JsonOutcome = { kind: 'object'; value: Record<string, unknown> } | { kind: 'invalid'; detail: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function parseJsonObject(bytes: Buffer): JsonOutcome {
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
  const [type, ...params] = header.split(';').map((p) => p.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((p) => p === '' || p === 'charset=utf-8' || p === 'charset="utf-8"');
}
