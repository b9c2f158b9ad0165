import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeTcpPort } from './ports';
import { IMAGE, NGINX_IMAGE, PODMAN_ENV, podman, REDIS_IMAGE, REPO, type Run } from './podman';

// deploy/compose/compose.yaml brought up with podman-compose as a user would, under a project name of
// its own, with what a user supplies made here: a certificate signed by a test CA, the env file (resolvers
// at a loopback port where nothing answers) and the published port on 127.0.0.1. One override file is
// added: the instances' egress network becomes internal too, so no container but nginx (which opens no
// connection but to the instances) has a route off its networks. podman-compose 1.0.3 (Debian 12)
// leaves the networks behind on `down`: they are removed by the project's label, as are containers left
// by a failed `up`, and at the latest when this process exits. The containers find each other by name
// (redis, nettools-1) through podman's aardvark-dns, which answers those itself: Debian 12's 1.4 forwards
// no single-label name and none under dns.podman to the host's resolvers (it answers NXDOMAIN).

export const COMPOSE_FILE = join(REPO, 'deploy', 'compose', 'compose.yaml');
export const SERVER_NAME = 'nettools.test';

export interface ComposeProject {
  name: string;
  dir: string; // the test's files: ca.pem, tls/, keys/ (empty), nettools.env
  port: number; // nginx's published port on 127.0.0.1
  container(service: string): string;
  exec(service: string, command: string[]): Promise<Run>;
  describe(): Promise<string>; // each container's state and last log lines, for a failure's message
  down(): Promise<void>;
}

const projects = new Set<string>();

function removeNow(project: string): void {
  const env = { env: PODMAN_ENV, stdio: 'ignore' as const, timeout: 60_000 };
  const label = `label=io.podman.compose.project=${project}`;
  for (const [kind, rm] of [['ps', ['rm', '--force', '--time', '0']], ['network', ['network', 'rm', '--force']]] as const) {
    try {
      const list = kind === 'ps' ? ['ps', '--all', '--quiet', '--filter', label] : ['network', 'ls', '--quiet', '--filter', label];
      const ids = execFileSync('podman', list, { env: PODMAN_ENV, timeout: 30_000 }).toString().split('\n').filter(Boolean);
      if (ids.length > 0) execFileSync('podman', [...rm, ...ids], env);
    } catch {
      // already gone
    }
  }
}

process.once('exit', () => projects.forEach(removeNow));

function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { env, timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

// A CA, and a server certificate it signs for SERVER_NAME: nginx's fullchain.pem and privkey.pem (root's,
// 0600, as docs/deploying.md installs it), and ca.pem for the client.
function makeCertificates(dir: string): void {
  const tls = join(dir, 'tls');
  mkdirSync(tls);
  const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=nettools compose test CA']);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'tls/privkey.pem', '-out', 'server.csr', '-subj', `/CN=${SERVER_NAME}`]);
  writeFileSync(join(dir, 'server.ext'), `subjectAltName=DNS:${SERVER_NAME}\n`);
  openssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'tls/fullchain.pem', '-days', '2', '-extfile', 'server.ext']);
}

// The env file as docs/deploying.md makes it for a host (HOST and NETTOOLS_TRUST_PROXY for an nginx on
// the host's loopback): compose.yaml's own `environment:` must win over those two.
function writeSettings(dir: string, settings: Record<string, string>): void {
  const env = { HOST: '127.0.0.1', NETTOOLS_TRUST_PROXY: '127.0.0.1/32', NETTOOLS_RESOLVERS: 'none=127.0.0.1:5399', ...settings };
  writeFileSync(join(dir, 'nettools.env'), Object.entries(env).map(([k, v]) => `${k}=${v}\n`).join(''), { mode: 0o600 });
  writeFileSync(join(dir, 'egress-internal.yaml'), 'networks:\n  egress:\n    internal: true\n');
}

export async function composeUp(settings: Record<string, string>): Promise<ComposeProject> {
  const name = `ntcompose${process.pid}x${Math.floor(Math.random() * 1e6)}`;
  const dir = mkdtempSync(join(tmpdir(), 'nt-compose-'));
  const port = await freeTcpPort('127.0.0.1');
  const env = {
    ...PODMAN_ENV,
    NETTOOLS_IMAGE: IMAGE,
    NETTOOLS_NGINX_IMAGE: NGINX_IMAGE,
    NETTOOLS_REDIS_IMAGE: REDIS_IMAGE,
    NETTOOLS_PUBLISH: `127.0.0.1:${port}`,
    NETTOOLS_TLS_DIR: join(dir, 'tls'),
    NETTOOLS_KEYS_DIR: join(dir, 'keys'),
    NETTOOLS_ENV_FILE: join(dir, 'nettools.env'),
  };
  const compose = (args: string[]) => run('podman-compose', ['-p', name, '-f', COMPOSE_FILE, '-f', join(dir, 'egress-internal.yaml'), ...args], env, 180_000);
  const project: ComposeProject = {
    name,
    dir,
    port,
    container: (service) => `${name}_${service}_1`,
    exec: (service, command) => podman(['exec', project.container(service), ...command]),
    async describe() {
      const ps = await podman(['ps', '--all', '--filter', `label=io.podman.compose.project=${name}`, '--format', '{{.Names}}: {{.Status}}']);
      const tails = await Promise.all(ps.stdout.split('\n').filter(Boolean).map(async (line) => {
        const logs = await podman(['logs', '--tail', '5', line.slice(0, line.indexOf(':'))]);
        return `${line}\n${logs.stdout}${logs.stderr}`;
      }));
      return tails.join('\n');
    },
    async down() {
      await compose(['down', '--timeout', '5']);
      removeNow(name);
      projects.delete(name);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  projects.add(name);
  try {
    mkdirSync(join(dir, 'keys'), { mode: 0o700 });
    makeCertificates(dir);
    writeSettings(dir, settings);
    const up = await compose(['up', '--detach']);
    if (up.code !== 0) throw new Error(`podman-compose up failed (${up.code}):\n${(up.stdout + up.stderr).slice(-4000)}`);
    return project;
  } catch (err) {
    await project.down();
    throw err;
  }
}

export interface Reply {
  status: number;
  body: string;
}

// One request through nginx over HTTPS with curl: the name resolved by --resolve to 127.0.0.1 (never by
// the system), the server's certificate checked against the test CA alone.
export async function httpsRequest(project: ComposeProject, path: string, json?: unknown): Promise<Reply> {
  const url = `https://${SERVER_NAME}:${project.port}${path}`;
  const body = json === undefined ? [] : ['--header', 'content-type: application/json', '--data', JSON.stringify(json)];
  const args = ['--silent', '--show-error', '--max-time', '30', '--cacert', join(project.dir, 'ca.pem'), '--resolve', `${SERVER_NAME}:${project.port}:127.0.0.1`, '--write-out', '\n%{http_code}', ...body, url];
  const res = await run('curl', args, process.env, 40_000);
  if (res.code !== 0) throw new Error(`curl ${url} failed (${res.code}): ${res.stderr}`);
  const cut = res.stdout.lastIndexOf('\n');
  return { status: Number(res.stdout.slice(cut + 1)), body: res.stdout.slice(0, cut) };
}

// The JSON lines a service printed (nettools' start-up and request lines), from podman's log.
export async function logLines(project: ComposeProject, service: string): Promise<Record<string, any>[]> {
  const logs = await podman(['logs', project.container(service)]);
  return logs.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
}
