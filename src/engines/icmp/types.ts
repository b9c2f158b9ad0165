// Shapes of the ICMP engine's public API (the ping 200 body reuses them as they are).
import type { Address } from '../../net/address';
import type { IcmpError } from './errors';

export type IpFamily = 4 | 6;
export type SocketKind = 'dgram' | 'raw';
export type KindPreference = 'auto' | SocketKind;

export type EchoStatus = 'reply' | 'timeout' | 'unreachable' | 'time-exceeded';

// Raw engine output, as the native side delivers it.
export interface RawEcho {
  seq: number;
  status: EchoStatus;
  rttMs?: number;
  ttl?: number;
  bytes?: number;
  from?: Address; // who answered, as the engine handed back its bytes
  reason?: string;
  icmpType?: number; // the answer's ICMP type and code (echo reply or error), for traces
  icmpCode?: number;
}

export interface RawResult {
  replies: RawEcho[];
  duplicates: number;
  durationMs: number;
}

// Where a metered ping (Pinger.startMetered) hands each echo as it is decided: its seq in the whole
// ping, status and unrounded RTT (-1 when none) for the statistics, and the echo as the API shows it.
export interface EchoSink {
  echo(seq: number, status: EchoStatus, rttMs: number, reply: EchoReply): void;
}

// A metered ping under way: `extend` lets it send that many more echoes (null) or says why not, and
// `stop` stops it as Pinger.start's function does.
export interface MeteredPing {
  extend(echoes: number): IcmpError | null;
  stop(): void;
}

export interface EchoReply {
  seq: number; // 0-based within the request
  status: EchoStatus;
  rttMs?: number;
  ttl?: number;
  bytes?: number;
  from?: string; // who sent an error
  reason?: string; // why it was unreachable / time exceeded
}

export interface PacketStats {
  sent: number;
  received: number;
  duplicates: number;
  lossPercent: number;
}

export interface RttStats {
  minMs: number;
  avgMs: number;
  maxMs: number;
  stddevMs: number;
  jitterMs: number;
}

export interface FamilyStats {
  inFlight: number;
  drops: number;
  stray: number;
  strayErrors: number; // the ICMP errors among `stray`: quoting no echo of ours (forged or foreign)
  sent: number; // echo requests the kernel took
  traceSent: number; // of those, the probes of traces (the engine serves ping and traceroute alike)
}

export interface EchoResult {
  packets: PacketStats;
  rtt: RttStats | null;
  replies: EchoReply[];
  durationMs: number;
}

// What a long ping (rounds.ts) ends with: the statistics and how many echoes ended in each status,
// without every echo again (each was reported as it was decided), so that what it keeps does not grow
// with its length.
export interface EchoTotals {
  packets: PacketStats;
  rtt: RttStats | null;
  statuses: Record<EchoStatus, number>;
  durationMs: number;
}

// The target is the parsed address value (src/net/address.ts): the engine gets its bytes and family,
// and reads no text. The numbers were checked at the edge (the request schema); the engine's own guard
// (native/icmp/icmp_limits.h) refuses anything outside its limits with `invalid-options`.
export interface EchoOptions {
  address: Address;
  count: number;
  intervalMs: number;
  timeoutMs: number;
  size: number; // payload bytes 0..1400
  ttl?: number; // 1..255
}

export interface SocketKinds {
  v4: SocketKind | null;
  v6: SocketKind | null;
  // Why a family has no socket (the errno text of the last kind tried).
  reasons: { v4?: string; v6?: string };
}

export type EchoOutcome = { ok: true; echo: EchoResult } | { ok: false; error: IcmpError };

// A metered ping's end: what its echoes, each reported as it was decided, do not say.
export type MeteredOutcome = { ok: true; duplicates: number; durationMs: number } | { ok: false; error: IcmpError };

export interface TraceOptions {
  address: Address;
  maxHops: number; // TTLs 1..maxHops
  probesPerHop: number;
  timeoutMs: number;
  paceUs: number; // gap between two probes: the whole path goes out within maxHops * probesPerHop * paceUs
  size: number; // payload bytes per probe
}

// Every probe in order (index = (ttl - 1) * probesPerHop + probe), as the engine decided it.
export type TraceOutcome = { ok: true; probes: RawEcho[]; durationMs: number } | { ok: false; error: IcmpError };

export interface PingerOptions {
  kind?: KindPreference; // force one socket kind (tests); default: datagram, then raw
}

export interface Pinger {
  readonly socketKinds: SocketKinds;
  // Calls `done` once (at once for a request it cannot start), unless the returned function is called
  // first: that stops the ping, and `done` never comes. What the tool uses: no promise, no signal.
  // `onEcho`, if given, gets each echo as soon as its outcome is decided (in that order, which is not
  // always seq order), equal to its item in the result's `replies`, all before `done`; a duplicate
  // reply is no new event (it shows only in the result's packets.duplicates). It may call the returned
  // function; nothing else comes then.
  start(options: EchoOptions, done: (outcome: EchoOutcome) => void, onEcho?: (echo: EchoReply) => void): () => void;
  // One engine session for a whole long ping that is paid for as it goes (rounds.ts): only the first
  // `grant` echoes go out until `extend` grants more, each echo goes to `sink` as it is decided, and
  // `done` comes once every one of `count` has (unless stopped first), listing none of them. What the
  // session holds does not grow with `count`: the echoes of one grant and the one before it.
  startMetered(options: EchoOptions, grant: number, done: (outcome: MeteredOutcome) => void, sink: EchoSink): MeteredPing;
  ping(options: EchoOptions, signal?: AbortSignal): Promise<EchoResult>;
  // One trace, as `start` runs a ping: `done` once unless stopped first; `onProbe` per probe as decided.
  trace(options: TraceOptions, done: (outcome: TraceOutcome) => void, onProbe?: (probe: RawEcho) => void): () => void;
  // Kernel drop counters and in-flight sequences, per family.
  // drops: the kernel's receive-queue overflows; stray: packets that parsed as ours but matched no echo in flight.
  stats(): { v4: FamilyStats; v6: FamilyStats; sessions: number };
  close(): void;
}
