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
    out.push({ ...certificateFacts(new X509Certificate(cert.raw), now), trustAnchor: anchors.has(cert.fingerprint256) });
    cert = cert.issuerCertificate;
  }
  return out;
}

// The same of a chain in hand as DER, leaf first (the HTTP engine's: up to the anchor when it verified,
// else as the server sent it).
export function derChainFacts(chain: readonly Uint8Array[], now: number, anchors: ReadonlySet<string>): CertificateFacts[] {
  return chain.slice(0, MAX_CHAIN).map((der) => {
    const x509 = new X509Certificate(der);
    return { ...certificateFacts(x509, now), trustAnchor: anchors.has(x509.fingerprint256) };
  });
}

function certificateFacts(x509: X509Certificate, now: number): Omit<CertificateFacts, 'trustAnchor'> {
  const key = x509.publicKey;
  const details = key.asymmetricKeyDetails;
  const notAfter = new Date(x509.validTo);
  return {
    subject: commonName(x509.subject),
    issuer: commonName(x509.issuer),
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

// The first CN of a distinguished name as Node writes it: one RDN a line (`C=US\nCN=example`), the
// attributes of a multi-valued RDN joined by ` + ` (`CN=a + O=b`; a `+` inside a value is escaped), and
// RFC 2253's escapes in the values (`\<`, `\,`, and `\0A` for a byte), which are undone here.
export function commonName(name: string): string | null {
  for (const line of name.split('\n')) {
    for (const attribute of line.split(/ \+ (?=[A-Za-z0-9.]+=)/)) {
      if (attribute.startsWith('CN=')) return unescapeValue(attribute.slice(3));
    }
  }
  return null;
}

function unescapeValue(value: string): string {
  if (!value.includes('\\')) return value;
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const hex = value[i] === '\\' ? /^[0-9A-Fa-f]{2}/.exec(value.slice(i + 1, i + 3)) : null;
    if (hex !== null) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
      continue;
    }
    if (value[i] === '\\' && i + 1 < value.length) i++;
    const char = String.fromCodePoint(value.codePointAt(i) as number); // a pair of surrogates stays one
    bytes.push(...Buffer.from(char, 'utf8'));
    i += char.length - 1;
  }
  return Buffer.from(bytes).toString('utf8');
}

const CURVE_BITS: Record<string, number> = { prime256v1: 256, secp384r1: 384, secp521r1: 521 };

function curveBits(curve: string | undefined): number | undefined {
  return curve === undefined ? undefined : CURVE_BITS[curve];
}

function sanFacts(text: string | undefined): { sans: string[]; sansCount: number } {
  const all = text === undefined ? [] : text.split(', ');
  return { sans: all.slice(0, MAX_SANS), sansCount: all.length };
}
