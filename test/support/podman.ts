import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freeTcpPort } from './ports';

// The image of deploy/Containerfile run with podman as CI runs it (.ci/containers.conf: no raised rlimits,
// runc). Each container runs attached, so its log lines arrive on our pipe and `podman run` exits with the
// container's own status. Every container started here is removed by name when the test is done with it,
// and at the latest when this process exits: none outlives a failed or killed run.

export const REPO = path.resolve(__dirname, '..', '..', '..');
export const IMAGE = process.env['NETTOOLS_IMAGE'] ?? 'nettools:test';
// The nginx and Redis images deploy/compose/*.Containerfile make, named after IMAGE as .ci/container.sh
// names them: nettools:test gives nettools-nginx:test and nettools-redis:test.
export const NGINX_IMAGE = IMAGE.replace(/^([^:]*)/, '$1-nginx');
export const REDIS_IMAGE = IMAGE.replace(/^([^:]*)/, '$1-redis');
export const PODMAN_ENV = { ...process.env, CONTAINERS_CONF: path.join(REPO, '.ci', 'containers.conf') };

// Every container on the host's network, so its traffic is loopback's; resolvers at loopback only.
const DEFAULT_ENV: Record<string, string> = {
  HOST: '127.0.0.1',
  NETTOOLS_RESOLVERS: 'none=127.0.0.1:9',
  NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true',
  NETTOOLS_RATE_LIMIT: '1000/1s',
};

// What docs/deploying.md runs nettools with: no capability but the one raw ICMP sockets need.
export const NET_RAW_ONLY = ['--cap-drop', 'ALL', '--cap-add', 'NET_RAW'];

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function podman(args: string[], timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile('podman', args, { env: PODMAN_ENV, timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

// The image, built by .ci/container.sh (the same build CI runs) when it is not in podman's store.
export function ensureImage(): Promise<void> {
  return ensureImages([IMAGE]);
}

// The three images deploy/compose/compose.yaml runs here, built the same way when one is missing.
export function ensureComposeImages(): Promise<void> {
  return ensureImages([IMAGE, NGINX_IMAGE, REDIS_IMAGE]);
}

async function ensureImages(wanted: string[]): Promise<void> {
  const present = await Promise.all(wanted.map(async (name) => (await podman(['image', 'exists', name])).code === 0));
  if (present.every(Boolean)) return;
  const build = await new Promise<Run>((resolve) =>
    execFile('bash', [path.join(REPO, '.ci', 'container.sh'), '--build-only'], { env: { ...process.env, NETTOOLS_IMAGE: IMAGE }, timeout: 25 * 60_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? 1 : 0, stdout, stderr }),
    ),
  );
  if (build.code !== 0) throw new Error(`building ${IMAGE} failed:\n${build.stderr.slice(-4000)}`);
}

const created = new Set<string>();
let counter = 0;

function removeAllNow(): void {
  for (const name of created) {
    try {
      execFileSync('podman', ['rm', '--force', '--time', '0', name], { env: PODMAN_ENV, stdio: 'ignore', timeout: 30_000 });
    } catch {
      // already gone
    }
  }
  created.clear();
}
process.once('exit', removeAllNow);
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.once(signal, () => process.exit(code));
}

export interface Container {
  name: string;
  base: string; // http://127.0.0.1:<port> on the host's loopback (with the host's network)
  listening: Record<string, any>; // the start-up line
  logs: string[]; // every JSON line the server printed so far
  stderr(): string;
  exited: Promise<number | null>; // the container's exit status
  exec(command: string[]): Promise<Run>;
  remove(): Promise<void>;
}

export interface RunOptions {
  env?: Record<string, string>;
  podmanArgs?: string[]; // before the image: --cap-add, --read-only, --volume, --network ...
  args?: string[]; // after the image: arguments to nettools
  hostNetwork?: boolean; // default true; false leaves the network to podmanArgs
}

// Starts the image with nettools serving and resolves at its `listening` line.
export async function runNettools(opts: RunOptions = {}): Promise<Container> {
  const name = `nettools-test-${process.pid}-${++counter}`;
  const port = await freeTcpPort('127.0.0.1');
  const env = { ...DEFAULT_ENV, PORT: String(port), ...opts.env };
  const network = opts.hostNetwork === false ? [] : ['--network', 'host'];
  const args = ['run', '--name', name, ...network, ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]), ...(opts.podmanArgs ?? []), IMAGE, ...(opts.args ?? [])];
  created.add(name);
  const child: ChildProcess = spawn('podman', args, { env: PODMAN_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: string[] = [];
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const remove = async () => {
    await podman(['rm', '--force', '--time', '0', name]);
    created.delete(name);
    await exited;
  };
  const listening = await new Promise<Record<string, any>>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`${name}: no listening line within 30 s: ${err}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        logs.push(line);
        if (line.includes('"msg":"listening"')) {
          const entry = JSON.parse(line);
          clearTimeout(timer);
          resolve(entry);
        }
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before listening: ${err}`));
    });
  }).catch(async (e: Error) => {
    await remove();
    throw e;
  });
  return {
    name,
    base: `http://127.0.0.1:${port}`,
    listening,
    logs,
    stderr: () => err,
    exited,
    exec: (command) => podman(['exec', name, ...command]),
    remove,
  };
}

// A one-off command in the image (the keys CLI, `id`): removed once it ends.
export async function runOnce(podmanArgs: string[], args: string[], env: Record<string, string> = {}): Promise<Run> {
  const name = `nettools-test-${process.pid}-${++counter}`;
  created.add(name);
  try {
    return await podman(['run', '--name', name, '--network', 'none', ...Object.entries({ NETTOOLS_RESOLVERS: DEFAULT_ENV['NETTOOLS_RESOLVERS'] as string, ...env }).flatMap(([k, v]) => ['--env', `${k}=${v}`]), ...podmanArgs, IMAGE, ...args]);
  } finally {
    await podman(['rm', '--force', '--time', '0', name]);
    created.delete(name);
  }
}
