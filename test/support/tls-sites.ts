import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runNginx } from './nginx-process';
import { freeTcpPort } from './ports';

// The sites a private nginx serves with TLS on 127.0.0.1, each on its own port, each with a certificate
// made here by openssl: `good` (issued by the test CA, valid 3 days, for good.tls.test), `expired` (the
// same CA and name, expired a day ago), `wrongName` (the CA, for other.tls.test), `selfSigned`, and
// `manyNames` (the CA, 150 names n0..n149.tls.test), and `outlivesCa` (the CA, for good.tls.test, valid 60
// days: past the CA's own end in 27 days, so the leaf is not the chain's earliest expiry), and `address` (the
// CA, for the IP address 127.0.0.1 alone).
export type SiteName = 'good' | 'expired' | 'wrongName' | 'selfSigned' | 'manyNames' | 'outlivesCa' | 'address';

export interface TlsSites {
  ports: Record<SiteName, number>;
  caFile: string; // the test CA: a trust anchor for NETTOOLS_TLS_CA_FILE
  caExpiry: number; // the test CA's notAfter, Unix seconds
  stop(): Promise<void>;
}

// `ago`: openssl run with the clock that many days back (libfaketime), for the test CA's start. A
// certificate already past its end takes explicit dates instead (issuePast).
const openssl = (dir: string, args: string[], ago = 0) =>
  ago === 0 ? execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' }) : execFileSync('faketime', ['-f', `-${ago}d`, 'openssl', ...args], { cwd: dir, stdio: 'ignore' });
const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

// `<name>.pem` and `<name>.key` in `dir`, issued by the CA there (makeTestCa) for `sans`: names, or IP
// literals (an https URL with an IP literal is verified against the address).
export function issue(dir: string, name: string, cn: string, days: string, sans = [cn]): void {
  request(dir, name, cn, sans);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-days', days, '-copy_extensions', 'copy', '-out', `${name}.pem`]);
}

// `<name>.key` and its signing request `<name>.csr` in `dir`, for `cn` and `sans`.
function request(dir: string, name: string, cn: string, sans: string[]): void {
  openssl(dir, ['req', ...EC, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`, '-addext', `subjectAltName=${sans.map((n) => `${isIP(n) === 0 ? 'DNS' : 'IP'}:${n}`).join(',')}`]);
}

// `ca.pem` and `ca.key` in `dir`: the test CA, from three days back, so that a certificate it issued two
// days back is within its time.
export function makeTestCa(dir: string): void {
  openssl(dir, ['req', '-x509', ...EC, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '30', '-subj', '/CN=nettools test CA'], 3);
}

// `<name>.pem` and `<name>.key` in `dir`, issued by the CA there for `cn` alone, valid from `fromDaysAgo`
// to `toDaysAgo` days back: dates `openssl ca` writes as given (OpenSSL 3.0 and 3.5 alike), where a clock
// moved by libfaketime once left such a certificate still valid on Debian 13.
function issuePast(dir: string, name: string, cn: string, fromDaysAgo: number, toDaysAgo: number): void {
  const config = `${name}-ca.cnf`;
  writeFileSync(join(dir, config), [
    '[ca]', 'default_ca = past', '[past]', `database = ${name}-index.txt`, 'new_certs_dir = .', `serial = ${name}-serial.txt`,
    'default_md = sha256', 'policy = any_name', 'copy_extensions = copy', 'unique_subject = no', '[any_name]', 'commonName = supplied', '',
  ].join('\n'));
  writeFileSync(join(dir, `${name}-index.txt`), '');
  writeFileSync(join(dir, `${name}-serial.txt`), '01\n');
  const utcTime = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().replace(/^\d\d|[-:T]|\.\d+/g, '');
  request(dir, name, cn, [cn]);
  openssl(dir, ['ca', '-batch', '-notext', '-config', config, '-cert', 'ca.pem', '-keyfile', 'ca.key', '-in', `${name}.csr`, '-out', `${name}.pem`, '-startdate', utcTime(fromDaysAgo), '-enddate', utcTime(toDaysAgo)]);
}

function makeCertificates(dir: string): void {
  makeTestCa(dir);
  issue(dir, 'good', 'good.tls.test', '3');
  // Valid from two days back for one day: it ended a day ago.
  issuePast(dir, 'expired', 'good.tls.test', 2, 1);
  issue(dir, 'wrongName', 'other.tls.test', '3');
  issue(dir, 'outlivesCa', 'good.tls.test', '60');
  issue(dir, 'address', '127.0.0.1', '3');
  issue(dir, 'manyNames', 'n0.tls.test', '3', Array.from({ length: 150 }, (_, i) => `n${i}.tls.test`));
  openssl(dir, ['req', '-x509', ...EC, '-keyout', 'selfSigned.key', '-out', 'selfSigned.pem', '-days', '3', '-subj', '/CN=self.tls.test', '-addext', 'subjectAltName=DNS:self.tls.test']);
}

export async function startTlsSites(): Promise<TlsSites> {
  const dir = mkdtempSync(join(tmpdir(), 'nt-tls-sites-'));
  makeCertificates(dir);
  const names: SiteName[] = ['good', 'expired', 'wrongName', 'selfSigned', 'manyNames', 'outlivesCa', 'address'];
  const ports = {} as Record<SiteName, number>;
  for (const name of names) ports[name] = await freeTcpPort('127.0.0.1');
  const servers = names.map((name) => `  server { listen 127.0.0.1:${ports[name]} ssl; ssl_certificate ${dir}/${name}.pem; ssl_certificate_key ${dir}/${name}.key; ssl_protocols TLSv1.2 TLSv1.3; return 204; }`).join('\n');
  const nginx = await runNginx(dir, servers, names.map((n) => ['127.0.0.1', ports[n]] as const), 'nginx serving the TLS test sites');
  return {
    ports,
    caFile: join(dir, 'ca.pem'),
    caExpiry: Date.parse(new X509Certificate(readFileSync(join(dir, 'ca.pem'))).validTo) / 1000,
    stop: () => nginx.stop(),
  };
}
