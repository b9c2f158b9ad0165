import type { HostTarget } from '../../validation/names';

// A tls request after validation, defaults and normalisation (host in ASCII form, IP literals bare).
export interface TlsRequest {
  host: string;
  target: HostTarget;
  port: number;
  serverName?: string;
  timeoutMs: number;
  ipVersion?: 4 | 6;
}

// How far the check got: `handshake` completed; the others ended it before (as tcp's statuses, plus
// `handshake-failed`: connected, but no TLS session came of it).
export type TlsStatus = 'handshake' | 'refused' | 'unreachable' | 'timeout' | 'handshake-failed' | 'error';

export interface CertificateFacts {
  subject: string | null; // the CN, when there is one
  issuer: string | null;
  sans: string[]; // the first MAX_SANS
  sansCount: number;
  serial: string;
  notBefore: string;
  notAfter: string;
  daysLeft: number;
  keyType: string | null;
  keyBits: number | null;
  sha256: string;
  trustAnchor: boolean; // one of the checker's trust anchors (Node ends the chain with the one it verified against)
}

// What a completed handshake shows.
export interface SessionFacts {
  verified: boolean;
  verifyError?: string;
  protocol: string;
  cipher: string;
  alpn?: string;
  ocspStapled: boolean;
  certificates: CertificateFacts[];
}

export interface TlsTimings {
  resolveMs: number;
  connectMs?: number;
  handshakeMs?: number;
}

export interface TlsResult extends Partial<SessionFacts> {
  host: string;
  address: string;
  ipVersion: 4 | 6;
  port: number;
  serverName: string | null;
  status: TlsStatus;
  code?: string;
  timings: TlsTimings;
  durationMs: number;
  startedAt: string;
}
