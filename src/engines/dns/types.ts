import type { ResolverConfig } from '../../config/types';
import type { NativeDnsCounters } from '../../native/dns-engine';
import type { Address } from '../../net/address';

// Every type the engine asks and reads (native/dns/dns_rdata.cc); the dns tool offers them all.
export const RECORD_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS', 'PTR', 'SOA', 'CAA', 'SRV', 'NAPTR', 'DS', 'DNSKEY', 'TLSA', 'HTTPS', 'SVCB'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

// An A or AAAA record's address as a value (family, bytes, its text made once) rides under a symbol, as
// SENDS does: JSON and deep comparisons see `address`, its text, alone; whoever needs the address (a
// resolved host, a record's identity) takes the value and parses nothing.
export const ADDRESS: unique symbol = Symbol('address');
export interface AddressRecord { address: string; ttl: number; readonly [ADDRESS]: Address }
export interface MxRecord { priority: number; exchange: string; ttl: number }
export interface TxtRecord { value: string; parts: string[]; ttl: number }
// PTR, NS.
export interface NameRecord { name: string; ttl: number }
export interface SoaRecord { mname: string; rname: string; serial: number; refresh: number; retry: number; expire: number; minimum: number; ttl: number }
export interface CaaRecord { flags: number; tag: string; value: string; ttl: number }
export interface SrvRecord { priority: number; weight: number; port: number; target: string; ttl: number }
export interface NaptrRecord { order: number; preference: number; flags: string; services: string; regexp: string; replacement: string; ttl: number }
export interface DsRecord { keyTag: number; algorithm: number; digestType: number; digest: string; ttl: number }
export interface DnskeyRecord { flags: number; protocol: number; algorithm: number; publicKey: string; ttl: number }
export interface TlsaRecord { usage: number; selector: number; matchingType: number; data: string; ttl: number }
// RFC 9460 SvcParams by name; a key without one as `key<N>`, its value in hex.
export interface SvcParams {
  mandatory?: string[];
  alpn?: string[];
  'no-default-alpn'?: true;
  port?: number;
  ipv4hint?: string[];
  ech?: string;
  ipv6hint?: string[];
  [key: `key${number}`]: string;
}
// SVCB, HTTPS.
export interface SvcbRecord { priority: number; target: string; params: SvcParams; ttl: number }
// One record of an answer section ("answer" names the callback type of util/answer.ts). A CNAME asked
// for has the shape of a link followed.
export type DnsRecord =
  | AddressRecord | MxRecord | TxtRecord | NameRecord | CnameLink | SoaRecord | CaaRecord | SrvRecord
  | NaptrRecord | DsRecord | DnskeyRecord | TlsaRecord | SvcbRecord;

// The record of an address, its text the value's own.
export function addressRecord(address: Address, ttl: number): AddressRecord {
  return { address: address.text, ttl, [ADDRESS]: address };
}

export interface CnameLink { name: string; target: string; ttl: number }

export type Flag = 'qr' | 'aa' | 'tc' | 'rd' | 'ra' | 'ad' | 'cd';

// An RRSIG beside a DNSSEC answer (RFC 4034 3.1); expiration and inception as ISO 8601 UTC times.
export interface RrsigRecord {
  typeCovered: string;
  algorithm: number;
  labels: number;
  originalTtl: number;
  expiration: string;
  inception: string;
  keyTag: number;
  signerName: string;
  signature: string; // base64
  ttl: number;
}

// One RFC 8914 Extended DNS Error option of an answer.
export interface ExtendedError { code: number; name: string; text?: string }

// What an answer's ECS option (RFC 7871) said, or that it carried none.
export type SubnetAnswer = { sourcePrefix: number; scopePrefix: number } | { ignored: true };

// EDNS a request asks beyond the defaults: the DO bit, an ECS prefix (its address already masked).
export interface EdnsAsk {
  dnssec?: boolean;
  clientSubnet?: { address: string; prefix: number };
}

// A resolver's answer, whatever its rcode: SERVFAIL and NXDOMAIN are results, not errors.
export interface QueryAnswered {
  rcode: string;
  flags: Flag[];
  rttMs: number;
  transport: 'udp' | 'tcp' | 'tls';
  answers: DnsRecord[];
  cnames?: CnameLink[]; // present only when the answer followed an alias
  rrsigs?: RrsigRecord[]; // only when the request asked for DNSSEC
  ede?: ExtendedError[]; // only when the answer carried EDE options
  clientSubnet?: SubnetAnswer; // only when the request sent ECS
}

// No usable answer: `timeout`, `connection-refused`, `connection-closed`, `network-error`, `malformed`,
// `cancelled`; from a DoT resolver also `tls-handshake-failed`, `tls-certificate-invalid` (detail: the
// verifier's reason) and `tls-unavailable`.
export interface QueryFailed {
  error: string;
  detail?: string;
}

// Packets the query sent, under a symbol key so JSON (a response body) never shows it; absent on an
// entry made in TypeScript (a cancelled query that never started).
export const SENDS: unique symbol = Symbol('sends');
export type QueryEntry = (QueryAnswered | QueryFailed) & { readonly [SENDS]?: number };

// Packets a query sent, as the engine counts them (UDP sends, the resend, a TCP fall-back).
export function sendsOf(entry: QueryEntry | undefined): number {
  return entry?.[SENDS] ?? 0;
}

export interface ResolverQueries {
  resolver: ResolverConfig;
  queries: Partial<Record<RecordType, QueryEntry>>;
}

// One (resolver, type) pair's entry the moment it settles (ResolverClient's onEntry), with the indexes of
// the resolver and the type in the request; `entry` equals the one the final results hold for the pair.
export interface SettledEntry {
  resolverIndex: number;
  typeIndex: number;
  resolver: ResolverConfig;
  type: RecordType;
  entry: QueryEntry;
}

export interface ResolverQuery extends EdnsAsk {
  domain: string;
  types: RecordType[];
  resolvers: ResolverConfig[];
  timeoutMs: number;
}

// The engine's counters, as the addon reports them.
export type EngineCounters = NativeDnsCounters;

export function isAnswered(entry: QueryEntry | undefined): entry is QueryAnswered {
  return entry !== undefined && 'rcode' in entry;
}
