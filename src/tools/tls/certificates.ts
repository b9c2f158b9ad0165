import { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate } from 'node:tls';
import type { CertificateFacts } from './types';

// At most this many certificates are reported: a chain longer than this is not a real one.
export const MAX_CHAIN = 10;
// And at most this many names of one certificate (a CDN's can list thousands): `sansCount` tells them all.
export const MAX_SANS = 100;

const DAY_MS = 86_400_000;

// The chain leaf first, as Node links it: the certificates the server sent, then the trust anchor
// from the store when verification found one. A self-signed certificate is its own issuer: the walk ends.
// Node gives no sign of which certificates came from the store, so each says whether it is one of
// `anchors` (fingerprint256): that is what the probe leaves out to read the chain as the server sent it.
export function chainFacts(leaf: DetailedPeerCertificate, now: number, anchors: ReadonlySet<string>): CertificateFacts[] {
  const out: CertificateFacts[] = [];
  let cert: DetailedPeerCertificate | undefined = leaf;
  const seen = new Set<string>();
  while (cert !== undefined && cert.raw !== undefined && out.length < MAX_CHAIN && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    out.push({ ...certificateFacts(cert, now), trustAnchor: anchors.has(cert.fingerprint256) });
    cert = cert.issuerCertificate;
  }
  return out;
}

function certificateFacts(cert: DetailedPeerCertificate, now: number): Omit<CertificateFacts, 'trustAnchor'> {
  const x509 = new X509Certificate(cert.raw);
  const key = x509.publicKey;
  const details = key.asymmetricKeyDetails;
  const notAfter = new Date(x509.validTo);
  return {
    subject: firstValue(cert.subject?.CN),
    issuer: firstValue(cert.issuer?.CN),
    ...sanFacts(x509.subjectAltName),
    serial: x509.serialNumber,
    notBefore: new Date(x509.validFrom).toISOString(),
    notAfter: notAfter.toISOString(),
    daysLeft: Math.floor((notAfter.getTime() - now) / DAY_MS),
    keyType: key.asymmetricKeyType ?? null,
    keyBits: details?.modulusLength ?? curveBits(details?.namedCurve) ?? null,
    sha256: x509.fingerprint256,
  };
}

// A CN given twice comes as an array; the first stands for it.
function firstValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

const CURVE_BITS: Record<string, number> = { prime256v1: 256, secp384r1: 384, secp521r1: 521 };

function curveBits(curve: string | undefined): number | undefined {
  return curve === undefined ? undefined : CURVE_BITS[curve];
}

function sanFacts(text: string | undefined): { sans: string[]; sansCount: number } {
  const all = text === undefined ? [] : text.split(', ');
  return { sans: all.slice(0, MAX_SANS), sansCount: all.length };
}
