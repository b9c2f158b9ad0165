import { createHash } from 'node:crypto';
import type { ZoneSpec } from '../support/knot';

// Deterministic bytes of any length, so the zone is the same every run.
function bytes(seed: string, length: number): Buffer {
  const out: Buffer[] = [];
  for (let i = 0; out.length * 32 < length; i++) out.push(createHash('sha256').update(`${seed}/${i}`).digest());
  return Buffer.concat(out).subarray(0, length);
}

// Eight 4096-bit-sized keys: about 4.3 KB, far over the 1232 bytes we advertise over UDP, so the set
// comes truncated and again over TCP.
const DNSKEYS = Array.from({ length: 8 }, (_, i) => `@ DNSKEY ${i === 0 ? 257 : 256} 3 8 ${bytes(`key${i}`, 516).toString('base64')}`);

// 40 strings of 250 bytes in one TXT record: one RDATA of 10 KB, bounds at the size a record can reach.
const LONG_TXT = `longtxt TXT ${Array.from({ length: 40 }, (_, i) => `"${String.fromCharCode(97 + (i % 26)).repeat(250)}"`).join(' ')}`;

export const TYPES_ZONE: ZoneSpec = {
  domain: 'types.test',
  records: [
    '@ NS ns2.elsewhere.test.',
    '@ CAA 0 issue "ca.example.net"',
    '@ CAA 0 issuewild ";"',
    '@ CAA 128 iodef "mailto:security@types.test"',
    '_sip._tcp SRV 10 60 5060 sip1',
    '_sip._tcp SRV 10 40 5060 SIP2.Types.Test.',
    '_sip._tcp SRV 20 0 5061 sip3',
    '_none._tcp SRV 0 0 0 .',
    'naptr NAPTR 100 10 "U" "E2U+sip" "!^.*$!sip:info@types.test!" .',
    'naptr NAPTR 102 10 "S" "SIP+D2U" "" _sip._udp',
    'naptr NAPTR 103 20 "" "" "" replacement',
    `sub DS 12345 13 2 ${bytes('ds2', 32).toString('hex')}`,
    `sub DS 54321 8 1 ${bytes('ds1', 20).toString('hex')}`,
    `sub DS 2 15 4 ${bytes('ds4', 48).toString('hex')}`,
    ...DNSKEYS,
    `_443._tcp TLSA 3 1 1 ${bytes('tlsa1', 32).toString('hex')}`,
    `_443._tcp TLSA 2 0 2 ${bytes('tlsa2', 64).toString('hex')}`,
    `_443._tcp TLSA 1 1 0 ${bytes('tlsa0', 300).toString('hex')}`,
    `@ HTTPS 1 . alpn=h2,h3 port=8443 ipv4hint=192.0.2.1,192.0.2.2 ech=${bytes('ech', 45).toString('base64')} ipv6hint=2001:db8::1,2001:DB8:0:0:0:0:0:2`,
    '@ HTTPS 0 alt.types.test.',
    '@ HTTPS 2 Pool.Types.Test. no-default-alpn alpn=h3',
    'svc SVCB 1 svc-target mandatory=alpn,port alpn=dot port=853 key65000=hello key65001',
    'svc SVCB 3 . key7=x',
    'ptr PTR host.types.test.',
    'ptr PTR second.types.test.',
    'c1 CNAME c2',
    'c2 CNAME C3',
    'c3 CNAME target',
    'target SRV 1 1 443 host',
    'target A 192.0.2.80',
    'alias CNAME target',
    LONG_TXT,
  ],
};
