import { formatIp } from '../net/ip';

// The socket peer as text people write (IPv4 dotted, IPv6 RFC 5952), from uWS's binary form: one
// conversion per request instead of parsing uWS's mapped-IPv6 text again wherever it is needed.
export function peerText(binary: ArrayBuffer): string {
  const b = new Uint8Array(binary);
  if (b.length === 4) return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
  if (b.length !== 16) return 'unknown';
  const mapped = b[10] === 0xff && b[11] === 0xff && b.subarray(0, 10).every((x) => x === 0);
  if (mapped) return `${b[12]}.${b[13]}.${b[14]}.${b[15]}`;
  return formatIp({ family: 6, bytes: b });
}
