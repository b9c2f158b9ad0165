import { parseAddress, type Address } from '../../src/net/address';

// The address value of an IP literal a test names, as the ping schema would have parsed it.
export function ip(text: string): Address {
  const address = parseAddress(text);
  if (address === null) throw new Error(`${text} is not an IP literal`);
  return address;
}
