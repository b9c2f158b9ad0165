// Every cycle's trace folded into one row per TTL, as mtr keeps its hosts table: who answered and how
// often, the figures of stats.ts, and the ICMP message of the latest answer.
import type { RawEcho } from '../../engines/icmp/types';
import type { Address } from '../../net/address';
import type { HopDetails } from '../hop-details';
import type { HopAssembler } from '../traceroute/hops';
import { HopTally } from './stats';
import type { MtrHop } from './types';

// Addresses remembered per hop, as mtr's MAX_PATH: a hop that load-balances over more still counts every
// answer in its figures, only the addresses past these go unlisted.
export const MAX_ADDRESSES = 8;

interface HopState {
  tally: HopTally;
  addresses: Map<string, { address: Address; count: number }>;
  icmp?: { type: number; code: number; name: string };
}

export class MtrPath {
  private readonly rows: HopState[] = [];
  private end: number | null = null; // the lowest TTL whose answer ended the path, over every cycle
  private reached = false;
  cycles = 0;

  constructor(
    private readonly maxHops: number,
    private readonly onNewAddress: (address: Address) => void = () => undefined,
  ) {}

  // How far the next cycle probes: once the path's end is known, no further.
  bound(): number {
    return this.end ?? this.maxHops;
  }

  destinationReached(): boolean {
    return this.reached;
  }

  // One cycle's trace, every TTL up to its end (or its bound) decided.
  fold(cycle: HopAssembler): void {
    const last = cycle.lastTtl();
    for (let ttl = 1; ttl <= last; ttl++) this.foldProbe(ttl, cycle.rawProbes(ttl)[0]);
    const end = cycle.endTtl();
    if (end !== null && (this.end === null || end < this.end)) this.end = end;
    if (cycle.destinationReached()) this.reached = true;
    this.cycles++;
  }

  // The rows as the API shows them: up to the path's end; without one, mtr's rule: up to one past the
  // highest hop that answered (hop 1 when none did), at most maxHops.
  hops(detailsOf: (address: string) => HopDetails): MtrHop[] {
    const shown = this.end ?? Math.min(this.maxHops, this.highestAnswered() + 1);
    return this.rows.slice(0, shown).map((row, i) => toHop(i + 1, row, detailsOf));
  }

  private foldProbe(ttl: number, probe: RawEcho | undefined): void {
    const row = this.row(ttl);
    if (probe === undefined || !answered(probe)) return row.tally.lost();
    row.tally.answered(probe.rttMs);
    row.icmp = { type: probe.icmpType, code: probe.icmpCode ?? 0, name: probe.status === 'reply' ? 'echo-reply' : (probe.reason ?? probe.status) };
    const seen = row.addresses.get(probe.from.text);
    if (seen !== undefined) seen.count++;
    else if (row.addresses.size < MAX_ADDRESSES) {
      row.addresses.set(probe.from.text, { address: probe.from, count: 1 });
      this.onNewAddress(probe.from);
    }
  }

  private row(ttl: number): HopState {
    while (this.rows.length < ttl) this.rows.push({ tally: new HopTally(), addresses: new Map() });
    return this.rows[ttl - 1] as HopState;
  }

  private highestAnswered(): number {
    for (let i = this.rows.length - 1; i >= 0; i--) if ((this.rows[i] as HopState).addresses.size > 0) return i + 1;
    return 0;
  }
}

type Answered = RawEcho & { from: Address; rttMs: number; icmpType: number };

// An answer has a sender, a round trip and an ICMP message; a probe that could not even be sent has none.
function answered(p: RawEcho): p is Answered {
  return p.status !== 'timeout' && p.from !== undefined && p.rttMs !== undefined && p.icmpType !== undefined;
}

function toHop(ttl: number, row: HopState, detailsOf: (address: string) => HopDetails): MtrHop {
  const addresses = [...row.addresses.values()].map(({ address, count }) => ({ address: address.text, ...detailsOf(address.text), count }));
  return { ttl, addresses, ...row.tally.figures(), ...(row.icmp ? { icmp: row.icmp } : {}) };
}
