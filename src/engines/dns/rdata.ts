import { uint32, type PackedReader } from '../../native/packed';
import type { DnsRecord, RecordType, SvcParams } from './types';

// The records of the newer types, from the engine's packed fields (native/dns/dns_outcome_js.h,
// OutcomeWriter::WriteFields): numbers, names, texts and data in RDATA order, then SvcParams. The engine
// checked every length and shape; this only names the fields.

export interface Fields {
  numbers: number[];
  names: string[];
  texts: string[];
  data: string | undefined;
  params: SvcParams;
}

// RFC 9460 section 14.3.2; any other key is `key<N>`.
const SVC_KEY_NAMES = ['mandatory', 'alpn', 'no-default-alpn', 'port', 'ipv4hint', 'ech', 'ipv6hint'] as const;

export function svcKeyName(key: number): string {
  return SVC_KEY_NAMES[key] ?? `key${key}`;
}

function list<T>(c: PackedReader, read: () => T): T[] {
  const out: T[] = [];
  for (let n = c.num(); n > 0; n--) out.push(read());
  return out;
}

function svcParams(c: PackedReader): SvcParams {
  const params: Record<string, unknown> = {};
  for (let n = c.num(); n > 0; n--) {
    const key = c.num();
    const name = svcKeyName(key);
    if (key === 0) params[name] = list(c, () => svcKeyName(c.num()));
    else if (key === 1) params[name] = list(c, () => c.str());
    else if (key === 2) params[name] = true;
    else if (key === 3) params[name] = c.num();
    else if (key === 4 || key === 6) params[name] = list(c, () => c.address().text);
    else params[name] = c.str();
  }
  return params as SvcParams;
}

// The packed fields of one record, in RDATA order (RRSIGs too: src/engines/dns/edns.ts names theirs).
export function fieldsOf(c: PackedReader): Fields {
  const numbers = list(c, () => uint32(c));
  const names = list(c, () => c.str());
  const texts = list(c, () => c.str());
  const data = c.optStr();
  return { numbers, names, texts, data, params: svcParams(c) };
}

function shape(type: RecordType, f: Fields, ttl: number): DnsRecord {
  const [a = 0, b = 0, c = 0, d = 0, e = 0] = f.numbers;
  const [n0 = '', n1 = ''] = f.names;
  const [t0 = '', t1 = '', t2 = ''] = f.texts;
  const data = f.data ?? '';
  switch (type) {
    case 'SOA': return { mname: n0, rname: n1, serial: a, refresh: b, retry: c, expire: d, minimum: e, ttl };
    case 'CAA': return { flags: a, tag: t0, value: data, ttl };
    case 'SRV': return { priority: a, weight: b, port: c, target: n0, ttl };
    case 'NAPTR': return { order: a, preference: b, flags: t0, services: t1, regexp: t2, replacement: n0, ttl };
    case 'DS': return { keyTag: a, algorithm: b, digestType: c, digest: data, ttl };
    case 'DNSKEY': return { flags: a, protocol: b, algorithm: c, publicKey: data, ttl };
    case 'TLSA': return { usage: a, selector: b, matchingType: c, data, ttl };
    case 'HTTPS':
    case 'SVCB': return { priority: a, target: n0, params: f.params, ttl };
    default: throw new TypeError(`packed outcome: no field layout for ${type}`);
  }
}

// A record of a type whose RDATA the engine hands over as fields, ttl last as in every record.
export function fieldsRecord(c: PackedReader, type: RecordType): DnsRecord {
  const f = fieldsOf(c);
  return shape(type, f, uint32(c));
}
