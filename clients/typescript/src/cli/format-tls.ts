import type { TlsResult } from '../types.js';
import { oneLine } from './terminal.js';

const endpoint = (address: string, port: number) => (address.includes(':') ? `[${oneLine(address)}]:${port}` : `${oneLine(address)}:${port}`);

// What a handshake showed, as a person reads it: the session, then each certificate as presented.
export function formatTls(result: TlsResult, server: string): string[] {
  const to = `${oneLine(result.host)} (${endpoint(result.address, result.port)})${result.serverName ? ` SNI ${oneLine(result.serverName)}` : ''}`;
  if (result.status !== 'handshake') return [`TLS ${to} via ${server}: ${oneLine(result.status)}${result.code ? ` (${oneLine(result.code)})` : ''}`];
  const verified = result.verified ? 'verified' : `NOT verified: ${oneLine(result.verifyError ?? 'unknown')}`;
  const lines = [`TLS ${to} via ${server}: ${oneLine(result.protocol ?? '?')} ${oneLine(result.cipher ?? '?')}, ${verified}${result.ocspStapled ? ', OCSP stapled' : ''}`];
  (result.certificates ?? []).forEach((c, i) => {
    lines.push(` ${i} subject ${oneLine(c.subject ?? '-')}, issuer ${oneLine(c.issuer ?? '-')}, not after ${oneLine(c.notAfter)} (${c.daysLeft} days left)`);
  });
  return lines;
}

// Why the check failed, for the exit status: no handshake, a certificate that does not verify, or (with
// --cert-days N) the server's certificate ending within N days. null: it passed.
export function tlsFailure(result: TlsResult, certDays: number | undefined): string | null {
  if (result.status !== 'handshake') return `no TLS handshake with ${oneLine(result.host)}: ${oneLine(result.status)}${result.code ? ` (${oneLine(result.code)})` : ''}`;
  if (!result.verified) return `the certificate of ${oneLine(result.host)} does not verify: ${oneLine(result.verifyError ?? 'unknown')}`;
  const leaf = result.certificates?.[0];
  if (certDays !== undefined && leaf !== undefined && leaf.daysLeft < certDays) return `the certificate of ${oneLine(result.host)} ends in ${leaf.daysLeft} days, fewer than --cert-days ${certDays}`;
  return null;
}
