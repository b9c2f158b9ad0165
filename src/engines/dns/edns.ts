import { uint32, type PackedReader } from '../../native/packed';
import { fieldsOf } from './rdata';
import type { EdnsAsk, ExtendedError, RrsigRecord, SubnetAnswer } from './types';

// The OPT record and RRSIGs of an answer, from the engine's packed outcome (native/dns/dns_outcome_js.cc,
// OutcomeWriter::WriteEdns and the RRSIGs after it), shaped for what the request asked.

// RFC 8914 section 5.2, the IANA "Extended DNS Error Codes" registry, codes 0-29.
const EDE_NAMES = [
  'Other Error', 'Unsupported DNSKEY Algorithm', 'Unsupported DS Digest Type', 'Stale Answer', 'Forged Answer',
  'DNSSEC Indeterminate', 'DNSSEC Bogus', 'Signature Expired', 'Signature Not Yet Valid', 'DNSKEY Missing',
  'RRSIGs Missing', 'No Zone Key Bit Set', 'NSEC Missing', 'Cached Error', 'Not Ready', 'Blocked', 'Censored',
  'Filtered', 'Prohibited', 'Stale NXDomain Answer', 'Not Authoritative', 'Not Supported', 'No Reachable Authority',
  'Network Error', 'Invalid Data', 'Signature Expired before Valid', 'Too Early', 'Unsupported NSEC3 Iterations Value',
  'Unable to conform to policy', 'Synthesized',
] as const;

export function edeName(code: number): string {
  return EDE_NAMES[code] ?? 'unknown';
}

// Type codes of the types the API names; any other as TYPE<n> (RFC 3597).
const TYPE_CODES: Readonly<Record<number, string>> = {
  1: 'A', 2: 'NS', 5: 'CNAME', 6: 'SOA', 12: 'PTR', 15: 'MX', 16: 'TXT', 28: 'AAAA', 33: 'SRV', 35: 'NAPTR',
  43: 'DS', 46: 'RRSIG', 47: 'NSEC', 48: 'DNSKEY', 50: 'NSEC3', 52: 'TLSA', 64: 'SVCB', 65: 'HTTPS', 257: 'CAA',
};

export function typeName(code: number): string {
  return TYPE_CODES[code] ?? `TYPE${code}`;
}

// RFC 4034 3.1.5: seconds since the epoch, modulo 2^32 (serial arithmetic); read as the time nearest now,
// which is right for any signature within 68 years of today.
function signatureTime(seconds: number, nowSeconds: number): string {
  const wrap = 2 ** 32;
  let t = seconds + Math.round((nowSeconds - seconds) / wrap) * wrap;
  if (t < 0) t += wrap;
  return new Date(t * 1000).toISOString().replace('.000Z', 'Z');
}

function rrsig(c: PackedReader, nowSeconds: number): RrsigRecord {
  const f = fieldsOf(c);
  const [covered = 0, algorithm = 0, labels = 0, originalTtl = 0, expiration = 0, inception = 0, keyTag = 0] = f.numbers;
  return {
    typeCovered: typeName(covered), algorithm, labels, originalTtl,
    expiration: signatureTime(expiration, nowSeconds), inception: signatureTime(inception, nowSeconds), keyTag,
    signerName: f.names[0] ?? '', signature: f.data ?? '', ttl: uint32(c),
  };
}

export interface EdnsParts {
  ede?: ExtendedError[];
  clientSubnet?: SubnetAnswer;
  rrsigs?: RrsigRecord[];
}

// The fields an answered entry gains: `ede` when the answer had any, `clientSubnet` when ECS was sent,
// `rrsigs` when DNSSEC was asked.
export function readEdns(c: PackedReader, ask: EdnsAsk): EdnsParts {
  const out: EdnsParts = {};
  let subnet: SubnetAnswer = { ignored: true };
  if (c.num() !== 0) {
    const ede: ExtendedError[] = [];
    for (let n = c.num(); n > 0; n--) {
      const code = c.num();
      const text = c.optStr();
      ede.push(text === undefined ? { code, name: edeName(code) } : { code, name: edeName(code), text });
    }
    if (ede.length > 0) out.ede = ede;
    if (c.num() !== 0) {
      const sourcePrefix = c.num();
      subnet = { sourcePrefix, scopePrefix: c.num() };
    }
  }
  if (ask.clientSubnet !== undefined) out.clientSubnet = subnet;
  const nowSeconds = Math.floor(Date.now() / 1000);
  const rrsigs: RrsigRecord[] = [];
  for (let n = c.num(); n > 0; n--) rrsigs.push(rrsig(c, nowSeconds));
  if (ask.dnssec === true) out.rrsigs = rrsigs;
  return out;
}
