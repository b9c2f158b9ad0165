import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Certificates for a test DoT resolver, made here by openssl (as test/support/tls-sites.ts makes its own):
// a test CA and the resolver's certificate for `name` issued by it, and a second CA nobody trusts that
// issued a certificate for the same name.
export interface DotCertificates {
  name: string;
  caFile: string; // the test CA: the trust anchor handed to the engine (NETTOOLS_TLS_CA_FILE)
  pem: string; // the resolver's certificate, issued by the test CA
  key: string;
  untrustedPem: string; // the same name, issued by the CA nobody trusts
  untrustedKey: string;
  remove(): void;
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function issue(dir: string, ca: string, out: string, name: string): void {
  const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  openssl(['req', ...EC, '-keyout', `${out}.key`, '-out', `${out}.csr`, '-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`]);
  openssl(['x509', '-req', '-in', `${out}.csr`, '-CA', `${ca}.pem`, '-CAkey', `${ca}.key`, '-days', '3', '-copy_extensions', 'copy', '-out', `${out}.pem`]);
}

export function makeDotCertificates(name: string): DotCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'nt-dot-certs-'));
  for (const ca of ['ca', 'rogue-ca']) {
    execFileSync('openssl', ['req', '-x509', ...EC, '-keyout', `${ca}.key`, '-out', `${ca}.pem`, '-days', '30', '-subj', `/CN=nettools ${ca}`], { cwd: dir, stdio: 'ignore' });
  }
  issue(dir, 'ca', 'server', name);
  issue(dir, 'rogue-ca', 'untrusted', name);
  return {
    name,
    caFile: join(dir, 'ca.pem'),
    pem: join(dir, 'server.pem'),
    key: join(dir, 'server.key'),
    untrustedPem: join(dir, 'untrusted.pem'),
    untrustedKey: join(dir, 'untrusted.key'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
