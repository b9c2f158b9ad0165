import type { EchoReply, EchoStatus } from '../../engines/icmp/types';

// One echo as JSON, byte for byte what JSON.stringify(echo) writes for the echoes toReply and
// unpackReply make (their keys, in their order), made by concatenation: a streamed ping writes one per
// echo, and walking the object through JSON.stringify cost more than the rest of the event's JavaScript
// (bench/README.md, streams). A number JSON.stringify would write as null (not finite) takes its path.
export function replyJson(echo: EchoReply): string {
  const { seq, status, rttMs, ttl, bytes, from, reason } = echo;
  if (!Number.isFinite(seq) || !finiteOrAbsent(rttMs) || !finiteOrAbsent(ttl) || !finiteOrAbsent(bytes)) return JSON.stringify(echo);
  let json = '{"seq":' + seq + ',"status":' + (STATUS_JSON[status] as string | undefined ?? JSON.stringify(status));
  if (rttMs !== undefined) json += ',"rttMs":' + rttMs;
  if (ttl !== undefined) json += ',"ttl":' + ttl;
  if (bytes !== undefined) json += ',"bytes":' + bytes;
  if (from !== undefined) json += ',"from":' + JSON.stringify(from);
  if (reason !== undefined) json += ',"reason":' + JSON.stringify(reason);
  return json + '}';
}

// Each status as JSON, written out once: JSON.stringify of a word sets up its serialiser at every call.
const STATUS_JSON: Readonly<Record<EchoStatus, string>> = { reply: '"reply"', timeout: '"timeout"', unreachable: '"unreachable"', 'time-exceeded': '"time-exceeded"' };

function finiteOrAbsent(n: number | undefined): boolean {
  return n === undefined || Number.isFinite(n);
}
