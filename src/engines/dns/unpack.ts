import { PackedReader, uint32 } from '../../native/packed';
import { readEdns } from './edns';
import { fieldsRecord } from './rdata';
import { addressRecord, SENDS, type CnameLink, type DnsRecord, type EdnsAsk, type Flag, type QueryAnswered, type QueryEntry, type RecordType } from './types';

// Reads the engine's packed outcomes (native/dns/dns_outcome_js.h, OutcomeWriter::Packed) for a whole
// request, in the addon's one packed form (src/native/packed.ts).

// DNS header flag bits (RFC 1035 4.1.1, RFC 4035 3.2), in the order results list them.
const FLAG_BITS: ReadonlyArray<readonly [number, Flag]> = [
  [0x8000, 'qr'], [0x0400, 'aa'], [0x0200, 'tc'], [0x0100, 'rd'], [0x0080, 'ra'], [0x0020, 'ad'], [0x0010, 'cd'],
];

// The engine's Transport (native/dns/dns_engine.h) by number.
const TRANSPORTS = ['udp', 'tcp', 'tls'] as const;

// RFC 1035 4.1.1 and RFC 2136 2.2 (the four bits a header carries); any other as RCODE<n>.
const RCODE_NAMES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE'];

export function rcodeName(rcode: number): string {
  return RCODE_NAMES[rcode] ?? `RCODE${rcode}`;
}

// One list per combination of the seven bits (at most 128), made on first use and shared by every
// entry with those flags: results only read them, and what a request allocates costs CPU time of its
// own (bench/README.md, "Bytes allocated per request").
const FLAG_MASK = FLAG_BITS.reduce((mask, [bit]) => mask | bit, 0);
const FLAG_LISTS = new Map<number, Flag[]>();

function flagNames(bits: number): Flag[] {
  const key = bits & FLAG_MASK;
  let names = FLAG_LISTS.get(key);
  if (names === undefined) {
    names = [];
    for (const [bit, name] of FLAG_BITS) if ((key & bit) !== 0) names.push(name);
    FLAG_LISTS.set(key, names);
  }
  return names;
}

function record(c: PackedReader, type: RecordType): DnsRecord {
  if (type === 'A' || type === 'AAAA') {
    const address = c.address();
    return addressRecord(address, uint32(c));
  }
  if (type === 'MX') {
    const priority = uint32(c);
    const exchange = c.str();
    return { priority, exchange, ttl: uint32(c) };
  }
  if (type === 'PTR' || type === 'NS') {
    const name = c.str();
    return { name, ttl: uint32(c) };
  }
  if (type === 'CNAME') {
    const name = c.str();
    const target = c.str();
    return { name, target, ttl: uint32(c) };
  }
  if (type === 'TXT') {
    const parts: string[] = [];
    for (let k = c.num(); k > 0; k--) parts.push(c.str());
    // Most TXT records are one string: join() of one part still walks the array into a new string.
    return { value: parts.length === 1 ? (parts[0] as string) : parts.join(''), parts, ttl: uint32(c) };
  }
  return fieldsRecord(c, type);
}

// How many packets a query sent rides along on its entry under a symbol, out of sight of JSON and of
// comparisons: the resolver budget reads it, the API does not show it. (A plain property write:
// defineProperty is far slower, and there are eight entries per request.)
function withSends(e: QueryEntry, sends: number): QueryEntry {
  (e as { [SENDS]?: number })[SENDS] = sends;
  return e;
}

function entry(c: PackedReader, type: RecordType, ask: EdnsAsk): QueryEntry {
  const answered = c.num() !== 0;
  const sends = c.num();
  if (!answered) {
    const error = c.str();
    const detail = c.optStr();
    return withSends(detail === undefined ? { error } : { error, detail }, sends);
  }
  return withSends(answeredEntry(c, type, ask), sends);
}

function answeredEntry(c: PackedReader, type: RecordType, ask: EdnsAsk): QueryEntry {
  const rcode = rcodeName(c.num());
  const flags = flagNames(c.num());
  const rttMs = c.num();
  const transport = TRANSPORTS[c.num()] ?? 'udp';
  const answers: DnsRecord[] = [];
  for (let n = c.num(); n > 0; n--) answers.push(record(c, type));
  const cnames: CnameLink[] = [];
  for (let n = c.num(); n > 0; n--) {
    const name = c.str();
    const target = c.str();
    cnames.push({ name, target, ttl: uint32(c) });
  }
  const base: QueryAnswered = cnames.length > 0 ? { rcode, flags, rttMs, transport, answers, cnames } : { rcode, flags, rttMs, transport, answers };
  const edns = readEdns(c, ask);
  // Without DNSSEC, ECS or EDE the entry is exactly what it always was.
  return edns.rrsigs === undefined && edns.ede === undefined && edns.clientSubnet === undefined ? base : { ...base, ...edns };
}

// The outcomes of `rounds` times `types`, in that order (resolver-major: every type of the first
// resolver, then of the second, ...). Stops early where the array does. `ask`: the EDNS the request
// asked, which decides the fields its entries gain (edns.ts).
export function unpackOutcomes(packed: readonly unknown[], types: readonly RecordType[], rounds: number, ask: EdnsAsk = {}): QueryEntry[] {
  const c = PackedReader.of('packed outcome', packed);
  const out: QueryEntry[] = [];
  for (let i = 0; i < rounds; i++) {
    for (const type of types) {
      if (c.done) return out;
      out.push(entry(c, type, ask));
      c.checkRead();
    }
  }
  return out;
}
