import type { EchoReply } from '../../engines/icmp/types';

// One echo as JSON, byte for byte what JSON.stringify(echo) writes for the echoes toReply and
// unpackReply make (their keys, in their order), made by concatenation: a streamed ping writes one per
// echo, and walking the object through JSON.stringify cost more than the rest of the event's JavaScript
// (bench/README.md, streams). A number JSON.stringify would write as null (not finite) takes its path.
export function replyJson(echo: EchoReply): string {
  const { seq, status, rttMs, ttl, bytes, from, reason } = echo;
  if (!Number.isFinite(seq) || !finiteOrAbsent(rttMs) || !finiteOrAbsent(ttl) || !finiteOrAbsent(bytes)) return JSON.stringify(echo);
  let json = '{"seq":' + seq + ',"status":' + JSON.stringify(status);
  if (rttMs !== undefined) json += ',"rttMs":' + rttMs;
  if (ttl !== undefined) json += ',"ttl":' + ttl;
  if (bytes !== undefined) json += ',"bytes":' + bytes;
  if (from !== undefined) json += ',"from":' + JSON.stringify(from);
  if (reason !== undefined) json += ',"reason":' + JSON.stringify(reason);
  return json + '}';
}

function finiteOrAbsent(n: number | undefined): boolean {
  return n === undefined || Number.isFinite(n);
}
