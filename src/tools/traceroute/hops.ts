import { roundMicros } from '../../engines/icmp/stats';
import type { RawEcho } from '../../engines/icmp/types';
import { sameAddress, type Address } from '../../net/address';
import { SENDER, type TraceHop, type TraceProbe } from './types';

// Probes as the engine decides them (index = (ttl - 1) * probesPerHop + probe), turned into hops.
// The path ends at the first TTL whose answer is final: an echo reply, or a destination unreachable
// (from the target, or from a router refusing to go on). The trace is complete once that TTL and every
// lower one is decided, or every probe is: higher TTLs then only repeat the end.
export class HopAssembler {
  private readonly probes: (RawEcho | undefined)[];
  private emitted = 0; // hops handed out by newlyDecided so far

  constructor(
    readonly maxHops: number,
    readonly probesPerHop: number,
    private readonly target: Address,
  ) {
    this.probes = new Array<RawEcho | undefined>(maxHops * probesPerHop).fill(undefined);
  }

  add(probe: RawEcho): void {
    if (probe.seq >= 0 && probe.seq < this.probes.length) this.probes[probe.seq] = probe;
  }

  // The hops decided since the last call, in TTL order, none past the end of the path.
  newlyDecided(): TraceHop[] {
    const out: TraceHop[] = [];
    const last = this.lastTtl();
    while (this.emitted < last && this.decided(this.emitted + 1)) {
      this.emitted++;
      out.push(this.hop(this.emitted));
      if (this.isFinal(this.emitted)) break;
    }
    return out;
  }

  complete(): boolean {
    const last = this.lastTtl();
    for (let ttl = 1; ttl <= last; ttl++) if (!this.decided(ttl)) return false;
    return true;
  }

  hops(): TraceHop[] {
    const out: TraceHop[] = [];
    for (let ttl = 1; ttl <= this.lastTtl(); ttl++) out.push(this.hop(ttl));
    return out;
  }

  // Whether the target itself answered at the last TTL (a refusing router is an end, not the target):
  // the sender's bytes against the target's, as the engine handed them back.
  destinationReached(): boolean {
    const last = this.lastTtl();
    return this.ofTtl(last).some((p) => p !== undefined && isFinal(p) && p.from !== undefined && sameAddress(p.from, this.target));
  }

  // The first TTL answered with an end of the path (echo reply, destination unreachable), if any yet.
  endTtl(): number | null {
    for (let ttl = 1; ttl <= this.maxHops; ttl++) if (this.isFinal(ttl)) return ttl;
    return null;
  }

  // The highest TTL of the path: its end, or maxHops without one.
  lastTtl(): number {
    return this.endTtl() ?? this.maxHops;
  }

  // A TTL's probes as the engine decided them (RTTs unrounded: mtr folds them into its figures).
  rawProbes(ttl: number): ReadonlyArray<RawEcho | undefined> {
    return this.ofTtl(ttl);
  }

  private isFinal(ttl: number): boolean {
    return this.ofTtl(ttl).some((p) => p !== undefined && isFinal(p));
  }

  private decided(ttl: number): boolean {
    return this.ofTtl(ttl).every((p) => p !== undefined);
  }

  private ofTtl(ttl: number): (RawEcho | undefined)[] {
    return this.probes.slice((ttl - 1) * this.probesPerHop, ttl * this.probesPerHop);
  }

  private hop(ttl: number): TraceHop {
    return { ttl, probes: this.ofTtl(ttl).map(toProbe) };
  }
}

// An ICMP answer that ends the path; a probe that failed to leave (no ICMP message) ends nothing.
function isFinal(p: RawEcho): boolean {
  return (p.status === 'reply' || p.status === 'unreachable') && p.icmpType !== undefined;
}

// An answer needs its sender and ICMP message; a probe that could not even be sent counts as unanswered.
function toProbe(p: RawEcho | undefined): TraceProbe {
  if (p === undefined || p.status === 'timeout' || p.from === undefined || p.icmpType === undefined || p.rttMs === undefined) return { status: 'timeout' };
  return { address: p.from.text, rttMs: roundMicros(p.rttMs), icmp: { type: p.icmpType, code: p.icmpCode ?? 0, name: p.status === 'reply' ? 'echo-reply' : (p.reason ?? p.status) }, [SENDER]: p.from };
}
