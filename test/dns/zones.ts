import type { ZoneSpec } from '../support/knot';

// 6 records of 2 x 200 bytes: about 2.4 KB, more than the 1232 bytes we advertise over UDP.
export const BIG_TXT = Array.from({ length: 6 }, (_, i) => `big TXT "${String(i).repeat(200)}" "${'z'.repeat(200)}"`);

// 2,200 MX records, about 48 KB over TCP: two numbers each, more than the engine's shared array of
// numbers holds (4,096), so the answer travels in an array of its own.
export const MANY_MX = Array.from({ length: 2200 }, (_, i) => `manymx MX ${i} m${i}`);

export const EXAMPLE_ZONE: ZoneSpec = {
  domain: 'example.test',
  records: [
    '@ A 192.0.2.1',
    '@ A 192.0.2.2',
    '@ AAAA 2001:DB8:0:0:0:0:0:10', // stored uncanonical on purpose
    '@ AAAA 2001:db8:0::0:0:0:11',
    '@ MX 10 mail.example.test.',
    '@ MX 20 MX2',
    '@ TXT "v=spf1 -all"',
    'multi TXT "first part" "second part" "third"',
    // UTF-8 (é), a byte that is no UTF-8 (\\255), and ASCII parts between them, in that order.
    'mixed TXT "a" "caf\\195\\169" "b" "bad\\255" "c"',
    'www CNAME alias',
    'alias CNAME host',
    'host A 192.0.2.50',
    'onlya A 192.0.2.9',
    ...BIG_TXT,
    ...MANY_MX,
  ],
};

export const NOUDP_ZONE: ZoneSpec = { domain: 'noudp.test', noUdp: true, records: ['@ A 192.0.2.77'] };
export const BROKEN_ZONE: ZoneSpec = { domain: 'broken.test', missingFile: true };
