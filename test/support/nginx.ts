import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../architecture/source-files';
import { spawnServer, type ChildServer } from './child-server';
import { accepts, freeTcpPort } from './ports';
import { waitFor } from './wait';

export interface Nginx {
  port: number; // TLS, on 127.0.0.1 (and on any `alsoOn` address)
  certFile: string; // the self-signed certificate it serves: a client's trust anchor
  stop(): Promise<void>;
}

export interface NginxOptions {
  alsoOn?: readonly string[]; // more IPv4 addresses to listen on (the host ends of test veth links), same port
}

// A private nginx on loopback running deploy/nginx/nettools.conf as shipped, with only its listen
// port, upstream port and certificate paths pointed at this test (a self-signed pair made here).
// `edits`: further [shipped text, replacement] pairs, e.g. another operator network.
export async function startNginx(upstreamPort: number, edits: ReadonlyArray<readonly [string, string]> = [], options: NginxOptions = {}): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'nt-nginx-'));
  for (const sub of ['client', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub));
  const alsoOn = options.alsoOn ?? [];
  const names = ['DNS:localhost', 'IP:127.0.0.1', ...alsoOn.map((a) => `IP:${a}`)].join(',');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2', '-subj', '/CN=localhost', '-addext', `subjectAltName=${names}`], { stdio: 'ignore' });
  const port = await freeTcpPort('127.0.0.1');
  const listen = [`127.0.0.1:${port}`, ...alsoOn.map((a) => `${a}:${port}`)].map((at) => `listen ${at} ssl http2;`).join('\n    ');
  const site = readFileSync(join(ROOT, 'deploy', 'nginx', 'nettools.conf'), 'utf8')
    .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${upstreamPort};`)
    .replace('listen 443 ssl http2;', listen)
    .replace('listen [::]:443 ssl http2;', '')
    .replace('/etc/nettools/tls/fullchain.pem', join(dir, 'cert.pem'))
    .replace('/etc/nettools/tls/privkey.pem', join(dir, 'key.pem'));
  for (const [from, to] of edits) {
    if (!site.includes(from)) throw new Error(`deploy/nginx/nettools.conf no longer holds ${JSON.stringify(from)}`);
  }
  writeFileSync(join(dir, 'site.conf'), edits.reduce((text, [from, to]) => text.replace(from, to), site));
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\nevents { worker_connections 256; }\n` +
      `http {\n  access_log off;\n  client_body_temp_path ${dir}/client;\n  proxy_temp_path ${dir}/proxy;\n  fastcgi_temp_path ${dir}/fastcgi;\n` +
      `  uwsgi_temp_path ${dir}/uwsgi;\n  scgi_temp_path ${dir}/scgi;\n  include ${dir}/site.conf;\n}\n`,
  );
  const child: ChildProcess = spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const started = async () => {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    return accepts(port);
  };
  await waitFor(`nginx accepting connections on port ${port}`, started, { everyMs: 50 }).catch((err: Error) => {
    throw new Error(`nginx did not start: ${err.message}: ${stderr}`);
  });
  return {
    port,
    certFile: join(dir, 'cert.pem'),
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


export interface FrontDoor {
  server: ChildServer;
  nginx: Nginx;
  stop(): Promise<void>;
}

// nettools behind the shipped nginx config as the README deploys it (nginx's X-Forwarded-For trusted),
// with API keys on (an empty keys file) so that an Authorization header has an effect to see.
export async function startFrontDoor(env: Record<string, string> = {}, edits: ReadonlyArray<readonly [string, string]> = []): Promise<FrontDoor> {
  const dir = mkdtempSync(join(tmpdir(), 'nt-front-'));
  writeFileSync(join(dir, 'keys'), '', { mode: 0o600 });
  let server: ChildServer | undefined;
  let nginx: Nginx | undefined;
  const stop = async () => {
    await nginx?.stop();
    if (server) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    server = await spawnServer({ NETTOOLS_TRUST_PROXY: '127.0.0.1/32', NETTOOLS_API_KEYS_FILE: join(dir, 'keys'), ...env });
    nginx = await startNginx(server.port, edits);
    return { server, nginx, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
