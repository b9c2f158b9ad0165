import fc from 'fast-check';
import { HOSTILE_TEXT } from './hostile';
import { loopbackOnly } from './loopback-only';

// The zone the fuzz resolvers serve: every address in it is loopback.
export const FUZZ_ZONE = 'fuzz.test';
export const FUZZ_RECORDS = ['@ A 127.0.0.1', '@ AAAA ::1', '@ MX 10 mail', '@ TXT "v=spf1 -all"', 'mail A 127.0.0.2', 'www CNAME @', 'v6 AAAA ::1'];

const label = (n: number) => 'a'.repeat(n);

// Names on both sides of each limit, other IPv4 notations, IDN, and loopback literals in every spelling.
const EDGE_NAMES = [
  FUZZ_ZONE, `${FUZZ_ZONE}.`, `www.${FUZZ_ZONE}`, `v6.${FUZZ_ZONE}`, `mail.${FUZZ_ZONE}`, `nope.${FUZZ_ZONE}`, `_dmarc.${FUZZ_ZONE}`,
  `${label(63)}.${FUZZ_ZONE}`, `${label(64)}.${FUZZ_ZONE}`, `${[label(63), label(63), label(63), label(52)].join('.')}`, `${[label(63), label(63), label(63), label(53)].join('.')}`,
  'localhost', 'bücher.fuzz.test', 'xn--bcher-kva.fuzz.test', 'xn--', 'xn--zz.test', 'ＦＵＺＺ。ｔｅｓｔ', 'a..b', '.', '..', '-a.test', 'a-.test', 'a_b.test',
  '127.0.0.1', '127.255.255.254', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::0001', '::ffff:127.0.0.1', '[::ffff:127.0.0.1]', '::1%lo', '[::1', '::1]',
  '0x7f000001', '2130706433', '127.1', '0177.0.0.1', '１２７.０.０.１', '127。0。0。1', '127.0.0.1.', '127.0.0.1:80', 'http://127.0.0.1/', 'fuzz.test/x', 'user@fuzz.test',
];

const loopbackV4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `127.${a}.${b}.${c}`);
const generatedName = fc.oneof(fc.domain(), fc.domain().map((d) => `${d}.${FUZZ_ZONE}`), fc.stringMatching(/^[a-z0-9_-]{1,70}(\.[a-z0-9_-]{1,70}){0,5}\.?$/));

// A ping host or DNS domain: mostly names, sometimes hostile text; never an address outside loopback.
export const nameText: fc.Arbitrary<string> = fc
  .oneof({ arbitrary: fc.constantFrom(...EDGE_NAMES), weight: 4 }, { arbitrary: generatedName, weight: 3 }, { arbitrary: loopbackV4, weight: 1 }, { arbitrary: fc.constantFrom(...HOSTILE_TEXT), weight: 1 }, { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 1 })
  .map(loopbackOnly);
