import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accepts, freeTcpPort } from './ports';
import { waitFor } from './wait';

// The sites a private nginx serves with TLS on 127.0.0.1, each on its own port, each with a certificate
// made here by openssl: `good` (issued by the test CA, valid 3 days, for good.tls.test), `expired` (the
// same CA and name, expired a day ago), `wrongName` (the CA, for other.tls.test), `selfSigned`, and
// `manyNames` (the CA, 150 names n0..n149.tls.test), and `outlivesCa` (the CA, for good.tls.test, valid 60
// days: past the CA's own end in 27 days, so the leaf is not the chain's earliest expiry).
export type SiteName = 'good' | 'expired' | 'wrongName' | 'selfSigned' | 'manyNames' | 'outlivesCa';

export interface TlsSites {
  ports: Record<SiteName, number>;
  caFile: string; // the test CA: a trust anchor for NETTOOLS_TLS_CA_FILE
  caExpiry: number; // the test CA's notAfter, Unix seconds
  stop(): Promise<void>;
}

// `ago`: openssl run with the clock that many days back (libfaketime), for a certificate already past its
// end: OpenSSL 3.5 (Debian 13) refuses a negative -days, and 3.0 (Debian 12) has no -not_after.
const openssl = (dir: string, args: string[], ago = 0) =>
  ago === 0 ? execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' }) : execFileSync('faketime', ['-f', `-${ago}d`, 'openssl', ...args], { cwd: dir, stdio: 'ignore' });
const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function issue(dir: string, name: string, cn: string, days: string, sans = [cn], ago = 0): void {
  openssl(dir, ['req', ...EC, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`, '-addext', `subjectAltName=${sans.map((n) => `DNS:${n}`).join(',')}`]);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-days', days, '-copy_extensions', 'copy', '-out', `${name}.pem`], ago);
}

function makeCertificates(dir: string): void {
  // The CA from three days back, so that a certificate it issued two days back is within its time.
  openssl(dir, ['req', '-x509', ...EC, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '30', '-subj', '/CN=nettools test CA'], 3);
  issue(dir, 'good', 'good.tls.test', '3');
  // Issued two days back for one day: it ended a day ago.
  issue(dir, 'expired', 'good.tls.test', '1', ['good.tls.test'], 2);
  issue(dir, 'wrongName', 'other.tls.test', '3');
  issue(dir, 'outlivesCa', 'good.tls.test', '60');
  issue(dir, 'manyNames', 'n0.tls.test', '3', Array.from({ length: 150 }, (_, i) => `n${i}.tls.test`));
  openssl(dir, ['req', '-x509', ...EC, '-keyout', 'selfSigned.key', '-out', 'selfSigned.pem', '-days', '3', '-subj', '/CN=self.tls.test', '-addext', 'subjectAltName=DNS:self.tls.test']);
}

export async function startTlsSites(): Promise<TlsSites> {
  const dir = mkdtempSync(join(tmpdir(), 'nt-tls-sites-'));
  makeCertificates(dir);
  const names: SiteName[] = ['good', 'expired', 'wrongName', 'selfSigned', 'manyNames', 'outlivesCa'];
  const ports = {} as Record<SiteName, number>;
  for (const name of names) ports[name] = await freeTcpPort('127.0.0.1');
  const servers = names.map((name) => `  server { listen 127.0.0.1:${ports[name]} ssl; ssl_certificate ${dir}/${name}.pem; ssl_certificate_key ${dir}/${name}.key; ssl_protocols TLSv1.2 TLSv1.3; return 204; }`).join('\n');
  const temp = ['client', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir};`).join('\n').replace('client_temp_path', 'client_body_temp_path');
  writeFileSync(join(dir, 'nginx.conf'), `daemon off;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\nevents { worker_connections 64; }\nhttp {\n  access_log off;\n${temp}\n${servers}\n}\n`);
  const child: ChildProcess = spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const started = async () => {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    return (await Promise.all(names.map((n) => accepts(ports[n])))).every(Boolean);
  };
  await waitFor('nginx serving the TLS test sites', started, { everyMs: 50 });
  return {
    ports,
    caFile: join(dir, 'ca.pem'),
    caExpiry: Date.parse(new X509Certificate(readFileSync(join(dir, 'ca.pem'))).validTo) / 1000,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
