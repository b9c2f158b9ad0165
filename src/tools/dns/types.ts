import type { QueryEntry, RecordType } from '../../engines/dns/types';
import type { TypeOutcome } from '../resolver-verdict';
import type { MergedRecords } from './merge';

export type { RecordType };

// A dns request after validation, defaults and normalisation.
export interface DnsRequest {
  domain: string; // ASCII, no trailing dot; or an IP literal, bare and lowercase
  reverseName?: string; // an IP literal's in-addr.arpa / ip6.arpa name: the name asked instead of `domain`
  types: RecordType[];
  resolvers?: string[]; // ids; absent means all configured
  timeoutMs: number;
  dnssec?: boolean;
  clientSubnet?: string; // a prefix; run.ts checks its length
}

// One resolver's answers, as the response shows them.
export interface ResolverReport {
  id: string;
  address: string;
  queries: Partial<Record<RecordType, QueryEntry>>;
}

// The 200 body: at least one resolver answered at least one query.
export interface DnsResult {
  domain: string;
  reverseName?: string; // present when `domain` is an IP literal
  records: MergedRecords;
  consistent: boolean;
  outcomes: Partial<Record<RecordType, TypeOutcome>>; // one per requested type
  resolvers: ResolverReport[];
  durationMs: number;
}
