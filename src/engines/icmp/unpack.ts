import type { RawEcho, RawResult } from './stats';
import type { EchoReply } from './types';

type TextAt = (length: number) => string | undefined;

// Reads a ping's packed result (native/icmp/icmp_result_js.h): numbers in a Float64Array (echoes,
// duplicates, durationMs, then eight per echo), texts back to back in one string, -1 for absent. The
// array is the engine's own and is rewritten by its next result: this reads it all at once.
const HEAD = 3;
const PER_ECHO = 8;

export function unpackResult(numbers: Float64Array, texts: string, statusNames: readonly string[]): RawResult {
  const echoes = numbers[0] as number;
  if (!(echoes >= 0) || HEAD + PER_ECHO * echoes > numbers.length) throw new TypeError(`packed ping result: ${echoes} echoes do not fit`);
  let at = 0;
  const text = (length: number): string | undefined => {
    if (length < 0) return undefined;
    const from = at;
    at += length;
    if (at > texts.length) throw new TypeError('packed ping result: texts cut short');
    return texts.slice(from, at);
  };
  const replies: RawEcho[] = [];
  for (let seq = 0, k = HEAD; seq < echoes; seq++, k += PER_ECHO) replies.push(echoAt(numbers, k, seq, text, statusNames));
  return { replies, duplicates: numbers[1] as number, durationMs: numbers[2] as number };
}

function echoAt(numbers: Float64Array, k: number, seq: number, text: TextAt, statusNames: readonly string[]): RawEcho {
  const status = statusNames[numbers[k] as number] as EchoReply['status'] | undefined;
  if (status === undefined) throw new TypeError(`packed ping result: unknown status ${numbers[k]}`);
  const echo: RawEcho = { seq, status };
  const rttMs = numbers[k + 1] as number;
  const ttl = numbers[k + 2] as number;
  const bytes = numbers[k + 3] as number;
  if (rttMs >= 0) echo.rttMs = rttMs;
  if (ttl >= 0) echo.ttl = ttl;
  if (bytes >= 0) echo.bytes = bytes;
  const from = text(numbers[k + 4] as number);
  const reason = text(numbers[k + 5] as number);
  if (from !== undefined) echo.from = from;
  if (reason !== undefined) echo.reason = reason;
  const icmpType = numbers[k + 6] as number;
  if (icmpType >= 0) {
    echo.icmpType = icmpType;
    echo.icmpCode = numbers[k + 7] as number;
  }
  return echo;
}

// Reads one echo's outcome as the engine reports it on the way (ResultWriter::PackedEcho): its eight
// numbers first in the shared array, its texts in order.
export function unpackEcho(seq: number, numbers: Float64Array, texts: string, statusNames: readonly string[]): RawEcho {
  if (numbers.length < PER_ECHO) throw new TypeError('packed echo: eight numbers expected');
  let at = 0;
  const text: TextAt = (length) => {
    if (length < 0) return undefined;
    const from = at;
    at += length;
    if (at > texts.length) throw new TypeError('packed echo: texts cut short');
    return texts.slice(from, at);
  };
  return echoAt(numbers, 0, seq, text, statusNames);
}
