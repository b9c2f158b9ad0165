// Servers whose resolver is a loopback Knot holding a made-up IP-to-ASN zone in Team Cymru's layout, with
// NETTOOLS_ASN_ZONE_V4 / _V6 pointed at it, for the asn tests of traceroute and mtr (which go to loopback
// only: the hop is the target). 127.0.0.2, .5, .7 and ::1 have an origin AS; 127.0.0.4 a malformed
// answer; 127.0.0.8 one whose prefix does not hold it; every other address none (NXDOMAIN).
import { startKnot, type KnotServer } from './knot';
import { V6_LOOPBACK_ZONE } from './loopback-reverse-names';
import { startServer, type RunningServer } from './server';

export const ASN_ZONE_V4 = 'origin.asn.test';
export const ASN_ZONE_V6 = 'origin6.asn.test';
const V6_LOOPBACK_NIBBLES = V6_LOOPBACK_ZONE.replace(/ip6\.arpa$/, '');

export const ZONE_ASN = {
  '127.0.0.2': { number: 64500, prefix: '127.0.0.0/24' },
  '127.0.0.5': { number: 4200000001, prefix: '127.0.0.4/30' },
  '127.0.0.7': { number: 64503, prefix: '127.0.0.7/32' },
  '::1': { number: 64501, prefix: '::1/128' },
};

export function startAsnKnot(address: string): Promise<KnotServer> {
  return startKnot(
    [
      {
        domain: ASN_ZONE_V4,
        records: ['2.0.0.127 TXT "64500 | 127.0.0.0/24 | ZZ | test | 2026-11-27"', '5.0.0.127 TXT "4200000001 64502 | 127.0.0.4/30 | ZZ | test | 2026-11-27"', '4.0.0.127 TXT "no origin here"', '7.0.0.127 TXT "64503 | 127.0.0.7/32"', '8.0.0.127 TXT "64504 | 10.0.0.0/8 | ZZ | test | 2026-11-27"'],
      },
      { domain: ASN_ZONE_V6, records: [`1.${V6_LOOPBACK_NIBBLES}${ASN_ZONE_V6}. TXT "64501 | ::1/128 | ZZ | test | 2026-11-27"`] },
    ],
    address,
  );
}

// The server with resolver `a` at `resolver`; `privateHops`: NETTOOLS_ASN_PRIVATE_HOPS, without which no
// loopback address is ever asked about.
export function startAsnServer(resolver: { address: string; port: number }, privateHops: boolean): Promise<RunningServer> {
  return startServer({
    NETTOOLS_RESOLVERS: `a=${resolver.address}:${resolver.port}`,
    NETTOOLS_ASN_ZONE_V4: ASN_ZONE_V4,
    NETTOOLS_ASN_ZONE_V6: ASN_ZONE_V6,
    NETTOOLS_ASN_PRIVATE_HOPS: String(privateHops),
    NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true',
    NETTOOLS_RATE_LIMIT: '1000/1s',
    NETTOOLS_TARGET_TRACES_PER_MINUTE: '1000',
  });
}
