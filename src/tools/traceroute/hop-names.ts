import type { Address } from '../../net/address';
import { SENDER, type TraceHop } from './types';

// With resolveNames, each hop's first answering address (its value, SENDER) is asked for its name the moment the hop is
// decided, all hops' lookups running at once; hops are handed on in TTL order, each once its name is in
// (or known to be missing). Without it, hops pass straight through.
export class HopNames {
  private readonly waiting: Array<{ hop: TraceHop; named: boolean }> = [];
  private readonly lookups: Array<Promise<void>> = [];
  private readonly names = new Map<number, string>();

  constructor(
    private readonly lookUp: ((address: Address) => Promise<string | null>) | null,
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
        (name) => this.named(entry, name),
        () => this.named(entry, null),
      ),
    );
  }

  // Once every lookup has settled: the hops with their names, as `hops` lists them.
  async withNames(hops: TraceHop[]): Promise<TraceHop[]> {
    await Promise.all(this.lookups);
    return hops.map((hop) => {
      const name = this.names.get(hop.ttl);
      return name === undefined ? hop : { ...hop, name };
    });
  }

  private named(entry: { hop: TraceHop; named: boolean }, name: string | null): void {
    if (name !== null) {
      this.names.set(entry.hop.ttl, name);
      entry.hop = { ...entry.hop, name };
    }
    entry.named = true;
    this.flush();
  }

  private flush(): void {
    while (this.waiting[0]?.named) this.onHop((this.waiting.shift() as { hop: TraceHop }).hop);
  }
}
