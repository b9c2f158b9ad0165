import { formatIp } from '../net/ip';

// The socket peer as text people write (IPv4 dotted, IPv6 RFC 5952), from uWS's binary form: one
// conversion per request instead of parsing uWS's mapped-IPv6 text again wherever it is needed.
export function peerText(binary: ArrayBuffer): string {
  const b = new Uint8Array(binary);
  if (b.length === 4) return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
  if (b.length !== 16) return 'unknown';
  // A dual-stack listener (the default 0.0.0.0 is one in uWS) sees IPv4 clients as ::ffff:a.b.c.d.
  if (b[10] === 0xff && b[11] === 0xff && isZero(b, 10)) return `${b[12]}.${b[13]}.${b[14]}.${b[15]}`;
  return formatIp({ family: 6, bytes: b });
}

function isZero(b: Uint8Array, length: number): boolean {
  for (let i = 0; i < length; i++) if (b[i] !== 0) return false;
  return true;
}
