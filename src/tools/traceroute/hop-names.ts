import type { DetailLookup, HopDetails } from '../hop-details';
import { SENDER, type TraceHop } from './types';

// With resolveNames or asn, each hop's first answering address (its value, SENDER) is asked for its
// name and origin AS the moment the hop is decided, all hops' lookups running at once; hops are handed on
// in TTL order, each once its details are in (or known to be missing). Without them, hops pass straight through.
export class HopNames {
  private readonly waiting: Array<{ hop: TraceHop; named: boolean }> = [];
  private readonly lookups: Array<Promise<void>> = [];
  private readonly details = new Map<number, HopDetails>();

  constructor(
    private readonly lookUp: DetailLookup | null,
    private readonly onHop: (hop: TraceHop) => void = () => undefined,
  ) {}

  add(hop: TraceHop): void {
    const entry = { hop, named: false };
    this.waiting.push(entry);
    const answered = hop.probes.find((p): p is Extract<typeof p, { address: string }> => 'address' in p);
    const sender = answered?.[SENDER];
    if (this.lookUp === null || sender === undefined) {
      entry.named = true;
      return this.flush();
    }
    this.lookups.push(
      this.lookUp(sender).then(
        (details) => this.named(entry, details),
        () => this.named(entry, {}),
      ),
    );
  }

  // Once every lookup has settled: the hops with their details, as `hops` lists them.
  async withNames(hops: TraceHop[]): Promise<TraceHop[]> {
    await Promise.all(this.lookups);
    return hops.map((hop) => {
      const details = this.details.get(hop.ttl);
      return details === undefined ? hop : { ...hop, ...details };
    });
  }

  private named(entry: { hop: TraceHop; named: boolean }, details: HopDetails): void {
    if (details.name !== undefined || details.asn !== undefined) {
      this.details.set(entry.hop.ttl, details);
      entry.hop = { ...entry.hop, ...details };
    }
    entry.named = true;
    this.flush();
  }

  private flush(): void {
    while (this.waiting[0]?.named) this.onHop((this.waiting.shift() as { hop: TraceHop }).hop);
  }
}
