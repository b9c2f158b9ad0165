import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

// The trust anchors a check verifies against, and their SHA-256 fingerprints: Node completes the chain it
// reports with the anchor it found in this store, and blackbox_exporter's certificate metrics read only
// what the server sent, so the probe must be able to tell the anchor apart.
export interface TrustStore {
  context: SecureContext;
  anchors: ReadonlySet<string>; // fingerprint256, as Node's certificates give it
  pem: string; // every anchor in one PEM text, for the HTTP engine's own TLS context
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

// The system's roots, and the operator's own (NETTOOLS_TLS_CA_FILE) for internal services; read once.
export function openTrustStore(file: string | null): TrustStore | string {
  let extra: string[] = [];
  if (file !== null) {
    try {
      extra = readFileSync(file, 'utf8').match(PEM_BLOCK) ?? [];
    } catch (err) {
      return `NETTOOLS_TLS_CA_FILE could not be read: ${(err as Error).message}`;
    }
  }
  const pems = [...rootCertificates, ...extra];
  try {
    return { context: createSecureContext({ ca: pems }), anchors: new Set(pems.map((pem) => new X509Certificate(pem).fingerprint256)), pem: pems.join('\n') };
  } catch (err) {
    return `NETTOOLS_TLS_CA_FILE holds a certificate that could not be read: ${(err as Error).message}`;
  }
}
