import fc from 'fast-check';
import { BAD_UTF8, HOSTILE_TEXT, PROTO_NAMES } from './hostile';
import { nameText } from './names';

// Query strings for GET /probe (and any GET), built from the parameter names the published document
// lists: known names with plausible and edge values, unknown and prototype names, repeats, and
// percent-encodings that decode to NUL, lone surrogates or bytes that are not UTF-8.

// One piece of a query name or value: text to percent-encode, bytes to percent-encode as they are, or
// characters written unencoded (`+`, a broken `%zz` escape, a stray `=` or `&`).
type QueryPart = string | { bytes: number[] } | { raw: string };

const UNRESERVED = /[A-Za-z0-9\-._~]/;

function encodeBytes(bytes: Iterable<number>): string {
  let out = '';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && UNRESERVED.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function encodeQueryParts(parts: QueryPart[]): string {
  return parts.map((p) => (typeof p === 'string' ? encodeBytes(Buffer.from(p, 'utf8')) : 'bytes' in p ? encodeBytes(p.bytes) : p.raw)).join('');
}

const NUMBERS = ['0', '1', '3', '10', '11', '99', '100', '101', '1000', '3600', '5000', '5001', '999999', '9999999', '-1', '-0', '007', '1e3', '100.0', '0x10', ' 100', '100 ', '', '１００', '9007199254740993'];
const rawBits = fc.constantFrom('+', '%', '%zz', '%0', '%%', '=', '&', '%u0041', ';');
const hostilePart: fc.Arbitrary<QueryPart> = fc.oneof(fc.constantFrom<QueryPart>(...HOSTILE_TEXT), fc.constantFrom(...BAD_UTF8).map((bytes) => ({ bytes })), rawBits.map((raw) => ({ raw })));

function valueFor(name: string, modules: readonly string[], resolverIds: readonly string[]): fc.Arbitrary<QueryPart[]> {
  // A Map: `name` may well be "__proto__" or "constructor".
  const known = new Map<string, fc.Arbitrary<string>>([
    ['module', fc.constantFrom(...modules, 'ICMP', 'http', '')],
    ['target', nameText],
    ['ip_protocol', fc.constantFrom('ip4', 'ip6', 'ip5', 'IP4', '')],
    ['type', fc.constantFrom('A', 'AAAA', 'MX', 'TXT', 'a', 'CNAME', 'ANY', '')],
    ['resolver', fc.constantFrom(...resolverIds, 'unknown', '')],
  ]);
  const plain = known.get(name) ?? fc.constantFrom(...NUMBERS);
  return fc.oneof({ arbitrary: plain.map((v) => [v]), weight: 6 }, { arbitrary: fc.array(fc.oneof(plain, hostilePart), { minLength: 1, maxLength: 3 }), weight: 1 });
}

export interface ProbeShape {
  params: readonly string[]; // every parameter the document lists for GET /probe
  modules: readonly string[];
  resolverIds: readonly string[];
}

const pair = (shape: ProbeShape) =>
  fc
    .oneof({ arbitrary: fc.constantFrom(...shape.params), weight: 8 }, { arbitrary: fc.constantFrom(...PROTO_NAMES), weight: 1 }, { arbitrary: fc.string({ unit: 'binary', maxLength: 6 }), weight: 1 })
    .chain((name) => fc.tuple(fc.constant(name), valueFor(name, shape.modules, shape.resolverIds), fc.constantFrom('=', '=', '=', '')));

// A query string (without the `?`): module and target usually present, in any order, maybe repeated.
export function probeQuery(shape: ProbeShape): fc.Arbitrary<string> {
  const core = fc.tuple(fc.constantFrom(...shape.modules), nameText).map(([m, t]): Array<[string, QueryPart[], string]> => [['module', [m], '='], ['target', [t], '=']]);
  return fc.tuple(fc.option(core, { freq: 8, nil: [] }), fc.array(pair(shape), { maxLength: 5 }), fc.nat(), fc.constantFrom('', '', '', '&', '&&')).map(([base, extra, turn, gap]) => {
    const all = [...base, ...extra];
    const shift = all.length > 0 ? turn % all.length : 0;
    const ordered = [...all.slice(shift), ...all.slice(0, shift)];
    return gap + ordered.map(([name, value, eq]) => `${encodeQueryParts([name])}${eq}${eq === '' ? '' : encodeQueryParts(value)}`).join(`&${gap}`);
  });
}
