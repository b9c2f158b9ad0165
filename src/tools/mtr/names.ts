// With resolveNames, each address that answers at a hop is asked for its PTR name once, the moment it is
// first seen (a path seen again every cycle asks nothing more). Cycle events carry the names already in;
// the summary waits for every lookup. A name that does not come is left out, never a refusal.
import type { Address } from '../../net/address';

export class AddressNames {
  private readonly names = new Map<string, string>();
  private readonly asked = new Set<string>();
  private readonly lookups: Array<Promise<void>> = [];

  constructor(private readonly lookUp: ((address: Address) => Promise<string | null>) | null) {}

  ask(address: Address): void {
    if (this.lookUp === null || this.asked.has(address.text)) return;
    this.asked.add(address.text);
    const text = address.text;
    this.lookups.push(
      this.lookUp(address).then(
        (name) => void (name !== null && this.names.set(text, name)),
        () => undefined,
      ),
    );
  }

  nameOf = (address: string): string | undefined => this.names.get(address);

  // Once every lookup asked so far has settled.
  async settled(): Promise<void> {
    await Promise.all(this.lookups);
  }
}
