import { formatIp, parseCidr } from '../../net/ip';
import type { FieldFault } from '../outcome';
import { CLIENT_SUBNET_MAX_PREFIX } from './schema';

// A request's `clientSubnet` as the engine sends it, or why it is refused: not a prefix, host bits set,
// or more specific than RFC 7871 section 11.1 advises (/24, /56), which would hand a client's address
// to every resolver and authority on the way.
export function clientSubnetOf(text: string): { address: string; prefix: number } | { fault: FieldFault } {
  const parsed = parseCidr(text);
  if (!parsed.ok) return { fault: { path: ['clientSubnet'], message: parsed.message } };
  const { family, prefix } = parsed.value;
  const max = CLIENT_SUBNET_MAX_PREFIX[family];
  if (prefix > max) {
    return { fault: { path: ['clientSubnet'], message: `"${text}" is more specific than /${max}: an IPv${family} client subnet may be at most /${max} (RFC 7871 section 11.1)` } };
  }
  return { address: formatIp(parsed.value), prefix };
}
