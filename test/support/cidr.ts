import { formatIp, type Cidr } from '../../src/net/ip';

// How a CIDR reads, for comparing parsed ones.
export function formatCidr(c: Cidr): string {
  return `${formatIp({ family: c.family, bytes: c.bytes })}/${c.prefix}`;
}
