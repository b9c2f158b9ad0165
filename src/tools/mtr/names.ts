// With resolveNames or asn, each address that answers at a hop is asked for its PTR name and origin AS
// once, the moment it is first seen (a path seen again every cycle asks nothing more). Cycle events
// carry the details already in; the summary waits for every lookup. A detail that does not come is left
// out, never a refusal.
import type { Address } from '../../net/address';
import type { DetailLookup, HopDetails } from '../hop-details';

const NONE: HopDetails = {};

export class AddressNames {
  private readonly details = new Map<string, HopDetails>();
  private readonly asked = new Set<string>();
  private readonly lookups: Array<Promise<void>> = [];

  constructor(private readonly lookUp: DetailLookup | null) {}

  ask(address: Address): void {
    if (this.lookUp === null || this.asked.has(address.text)) return;
    this.asked.add(address.text);
    const text = address.text;
    this.lookups.push(
      this.lookUp(address).then(
        (details) => void this.details.set(text, details),
        () => undefined,
      ),
    );
  }

  detailsOf = (address: string): HopDetails => this.details.get(address) ?? NONE;

  // Once every lookup asked so far has settled.
  async settled(): Promise<void> {
    await Promise.all(this.lookups);
  }
}
