// Request shapes after validation, defaults and normalisation (host/domain in ASCII form).
export interface PingRequest {
  host: string;
  count: number;
  intervalMs: number;
  timeoutMs: number;
  ipVersion?: 4 | 6;
  size: number;
}

export type RecordType = 'A' | 'AAAA' | 'MX' | 'TXT';

export interface DnsRequest {
  domain: string; // ASCII, no trailing dot
  types: RecordType[];
  resolvers?: string[]; // ids; absent means all configured
  timeoutMs: number;
}
