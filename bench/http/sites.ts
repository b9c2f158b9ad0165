// The http bench's nginx: one small body over plain HTTP and over TLS on loopback, each on PORTS ports
// (the per-target budget is per address and port), the certificate issued for 127.0.0.1 by a test CA made
// at the start of the run. No TLS session cache and no tickets: every handshake is a full one, as each of
// nettools' checks makes, and curl is told not to resume either.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runNginx } from '../../test/support/nginx-process';
import { freeTcpPort } from '../../test/support/ports';
import { issue, makeTestCa } from '../../test/support/tls-sites';
import { track } from '../lib/children';

const PORTS = 16;
export const BODY_BYTES = 1024;

export interface BenchSites {
  http: number[]; // ports on 127.0.0.1
  https: number[];
  caFile: string;
  stop(): Promise<void>;
}

async function ports(n: number): Promise<number[]> {
  const out: number[] = [];
  while (out.length < n) {
    const port = await freeTcpPort('127.0.0.1');
    if (!out.includes(port)) out.push(port);
  }
  return out;
}

export async function startBenchSites(): Promise<BenchSites> {
  const dir = mkdtempSync(path.join(tmpdir(), 'nettools-bench-http-'));
  makeTestCa(dir);
  issue(dir, 'site', '127.0.0.1', '3', ['127.0.0.1']);
  const http = await ports(PORTS);
  const https = (await ports(PORTS * 2)).filter((p) => !http.includes(p)).slice(0, PORTS);
  const listen = (list: number[], tls: string) => list.map((p) => `listen 127.0.0.1:${p}${tls};`).join(' ');
  // The body from nginx's memory: its workers run as nobody and could not read the temp dir.
  const location = `location = / { return 200 "${'a'.repeat(BODY_BYTES)}"; }`;
  const servers = `  server { ${listen(http, '')} ${location} }
  server { ${listen(https, ' ssl')} ssl_certificate ${dir}/site.pem; ssl_certificate_key ${dir}/site.key; ssl_protocols TLSv1.2 TLSv1.3; ssl_session_cache off; ssl_session_tickets off; ${location} }`;
  const nginx = await runNginx(dir, servers, [...http, ...https].map((p) => ['127.0.0.1', p] as const), 'nginx serving the bench body');
  track(nginx.child, 'nginx');
  return { http, https, caFile: path.join(dir, 'ca.pem'), stop: () => nginx.stop() };
}
