// What the ICMP tools (ping, traceroute) share of their engine: opening it, or the one sentence that says
// why this server cannot, and what an engine error means to the caller.
import { IcmpError } from '../engines/icmp/errors';
import { openPinger } from '../engines/icmp/pinger';
import type { Pinger, PingerOptions, SocketKinds } from '../engines/icmp/types';
import type { ToolFailure } from './outcome';

function unavailableReason(kinds: SocketKinds): string | null {
  if (kinds.v4 !== null || kinds.v6 !== null) return null;
  return `no ICMP socket opens (IPv4: ${kinds.reasons.v4}; IPv6: ${kinds.reasons.v6}); grant the server CAP_NET_RAW (or run it as root), or widen net.ipv4.ping_group_range to cover its group`;
}

// An engine with at least one socket, or why there is none (the tool's slot is then `unavailable`).
export function openIcmpEngine(options?: PingerOptions): { pinger: Pinger } | { unavailable: string } {
  let pinger: Pinger;
  try {
    pinger = openPinger(options);
  } catch (err) {
    return { unavailable: `the ICMP engine could not start: ${err instanceof Error ? err.message : String(err)}` };
  }
  const unavailable = unavailableReason(pinger.socketKinds);
  if (unavailable === null) return { pinger };
  pinger.close();
  return { unavailable };
}

// An engine error as the caller hears it; `aborted` is the tool's own words for a caller gone away.
// It throws what is no engine error (see below).
export function engineFailure(err: unknown, aborted: ToolFailure): ToolFailure {
  if (err instanceof IcmpError && err.code === 'seq-exhausted') {
    return { code: 'engine-busy', detail: 'every ICMP sequence number is in flight; try again shortly', retryAfterSeconds: 1 };
  }
  if (err instanceof IcmpError && err.code === 'engine-closed') return { code: 'engine-unavailable', detail: 'the ICMP engine is shutting down' };
  if (err instanceof IcmpError && err.code === 'aborted') return aborted;
  // A throw in a session's call back, or anything that is no engine error, is a bug: thrown on, it is
  // the request's fault (a logged 500), not an outcome.
  if (err instanceof IcmpError && err.code === 'fault') throw err.cause;
  if (!(err instanceof IcmpError)) throw err;
  return { code: 'internal-error', detail: err.message };
}
