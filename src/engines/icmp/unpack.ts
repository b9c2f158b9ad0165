import { PackedReader } from '../../native/packed';
import type { EchoReply, EchoStatus, RawEcho, RawResult } from './types';
import { roundMicros, toReply } from './stats';

// Reads a ping's packed result (native/icmp/icmp_result_js.h), in the addon's one packed form
// (src/native/packed.ts): echoes, duplicates, durationMs, then per echo eight numbers (and the words of
// its sender's address, when it has one), -1 for an absent number. The engine's numbers are rewritten by its next result: this reads them all at once.
const PER_ECHO = 8; // at least: a sender adds its address's words

export function unpackResult(statusNames: readonly string[], numbers: unknown, ascii: unknown, others?: unknown): RawResult {
  const { r, echoes, duplicates, durationMs } = resultHead('packed ping result', numbers, ascii, others);
  const replies: RawEcho[] = [];
  for (let seq = 0; seq < echoes; seq++) replies.push(echoAt(r, seq, statusNames));
  return { replies, duplicates, durationMs };
}

// What a result says before its echoes, the reader left at the first echo.
function resultHead(what: string, numbers: unknown, ascii: unknown, others: unknown): { r: PackedReader; echoes: number; duplicates: number; durationMs: number } {
  const r = new PackedReader(what, numbers, ascii, others);
  const echoes = r.num();
  const duplicates = r.num();
  const durationMs = r.num();
  if (!(echoes >= 0) || PER_ECHO * echoes > r.remaining) throw new TypeError(`${what}: ${echoes} echoes do not fit`);
  return { r, echoes, duplicates, durationMs };
}

// One echo's outcome as the engine reports it on the way (a record of its reports, ResultWriter::Report,
// read past its session and index): its eight numbers, and its sender's words.
export function unpackEcho(statusNames: readonly string[], seq: number, r: PackedReader): RawEcho {
  if (r.remaining < PER_ECHO) throw new TypeError('packed echo: eight numbers expected');
  return echoAt(r, seq, statusNames);
}

// One echo as a streamed ping reports it (stats.ts toReply of what unpackEcho reads), made straight from
// the numbers: a reply, the echo nearly every event is, shows no sender, so its address is not made.
export function unpackReply(statusNames: readonly string[], seq: number, r: PackedReader): EchoReply {
  if (r.remaining < PER_ECHO) throw new TypeError('packed echo: eight numbers expected');
  if (statusNames[r.peek()] !== 'reply') return toReply(echoAt(r, seq, statusNames));
  r.num();
  const echo: EchoReply = { seq, status: 'reply' };
  const rttMs = r.num();
  const ttl = r.num();
  const bytes = r.num();
  if (rttMs >= 0) echo.rttMs = roundMicros(rttMs);
  if (ttl >= 0) echo.ttl = ttl;
  if (bytes >= 0) echo.bytes = bytes;
  r.skipAddress();
  r.optStr();
  r.checkRead();
  return echo;
}

function statusAt(r: PackedReader, statusNames: readonly string[]): EchoStatus {
  const n = r.num();
  const status = statusNames[n] as EchoStatus | undefined;
  if (status === undefined) throw new TypeError(`packed ping result: unknown status ${n}`);
  return status;
}

function echoAt(r: PackedReader, seq: number, statusNames: readonly string[]): RawEcho {
  const status = statusAt(r, statusNames);
  const echo: RawEcho = { seq, status };
  const rttMs = r.num();
  const ttl = r.num();
  const bytes = r.num();
  if (rttMs >= 0) echo.rttMs = rttMs;
  if (ttl >= 0) echo.ttl = ttl;
  if (bytes >= 0) echo.bytes = bytes;
  const from = r.optAddress();
  const reason = r.optStr();
  if (from !== undefined) echo.from = from;
  if (reason !== undefined) echo.reason = reason;
  const icmpType = r.num();
  const icmpCode = r.num();
  if (icmpType >= 0) {
    echo.icmpType = icmpType;
    echo.icmpCode = icmpCode;
  }
  r.checkRead();
  return echo;
}
