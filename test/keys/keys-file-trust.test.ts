import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN, runToExit, spawnServer, type ChildServer } from '../support/child-server';
import { request } from '../support/http';
import { TEST_ENV } from '../support/server';
import { waitFor } from '../support/wait';

type Ctx = { dir: string; file: string; env: Record<string, string> };
const test = suite<Ctx>('a keys file others could have written');

test.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'nt-trust-'));
  ctx.file = join(ctx.dir, 'keys');
  ctx.env = { NETTOOLS_API_KEYS_FILE: ctx.file, NETTOOLS_PLANS: 'pro=600/60s:16', NETTOOLS_RATE_LIMIT: '100/60s' };
});

test.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

async function createKey(env: Record<string, string>): Promise<string> {
  const { code, stdout, stderr } = await runToExit(env, ['keys', 'create', '--plan', 'pro']);
  if (code !== 0) throw new Error(stderr);
  return stdout.trim();
}

// How a start ends: the exit code and stderr of a server that stopped, or 'listening' for one that
// started (stopped again here), so a server that wrongly starts fails the test instead of hanging it.
function startOutcome(env: Record<string, string>): Promise<{ code: number | null; stderr: string } | 'listening'> {
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, ...TEST_ENV, NETTOOLS_LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let listening = false;
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.on('data', (c: Buffer) => {
    if (!listening && c.toString().includes('"listening"')) {
      listening = true;
      child.kill('SIGTERM');
    }
  });
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve(listening ? 'listening' : { code, stderr });
    }),
  );
}

// The server logs each SIGHUP's outcome, once per worker; wait for `count` such lines.
async function hup(server: ChildServer, count = 1): Promise<string[]> {
  const seen = server.logs.length;
  server.child.kill('SIGHUP');
  const lines = () => server.logs.slice(seen).filter((l) => l.includes('keys reload'));
  await waitFor(`${count} keys reload line(s)`, () => lines().length >= count);
  return lines();
}

async function stop(server: ChildServer): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

const status = async (server: ChildServer, key: string, localAddress: string) =>
  (await request(server.base, '/api/limits', { headers: { authorization: `Bearer ${key}` }, localAddress })).status;

const faults: Array<[string, (file: string) => void, string]> = [
  ['writable by its group', (file) => chmodSync(file, 0o660), 'is writable by its group (mode 0660); chmod go-w it'],
  ['writable by others', (file) => chmodSync(file, 0o602), 'is writable by others (mode 0602); chmod go-w it'],
  ['owned by another user', (file) => chownSync(file, 65534, 65534), `is owned by uid 65534, neither the user nettools runs as (uid ${process.geteuid?.()}) nor root`],
];

for (const [what, spoil, reason] of faults) {
  test(`a keys file ${what} stops the server at start: one line naming the file, exit 2`, async ({ env, file }) => {
    await createKey(env);
    spoil(file);
    assert.equal(await startOutcome(env), { code: 2, stderr: `nettools: NETTOOLS_API_KEYS_FILE: ${file} ${reason}\n` });
  });

  test(`a keys file that becomes ${what} is refused on SIGHUP, and the keys in force stay`, async ({ env, file }) => {
    const before = await createKey(env);
    const server = await spawnServer(env);
    try {
      const after = await createKey(env);
      spoil(file);
      const [line] = await hup(server);
      assert.match(line as string, 'keys reload failed; the previous keys stay in force');
      assert.is(JSON.parse(line as string).error, `${file} ${reason}`);
      assert.is(await status(server, before, '127.0.0.1'), 200);
      assert.is(await status(server, after, '127.0.0.2'), 401);
    } finally {
      await stop(server);
    }
  });
}

test('with worker threads, each worker refuses a keys file that became group-writable and keeps its keys', async ({ env, file }) => {
  const workerEnv = { ...env, NETTOOLS_WORKERS: '2' };
  const before = await createKey(workerEnv);
  const server = await spawnServer(workerEnv);
  try {
    const after = await createKey(workerEnv);
    chmodSync(file, 0o620);
    const lines = (await hup(server, 2)).map((l) => JSON.parse(l));
    assert.equal(lines.map((l) => [l.msg, l.worker, l.error]).sort(), [0, 1].map((w) => ['keys reload failed; the previous keys stay in force', w, `${file} is writable by its group (mode 0620); chmod go-w it`]));
    // Connections spread over both workers: every one of them still knows the old key only.
    for (let i = 1; i <= 4; i++) {
      assert.is(await status(server, before, `127.0.4.${i}`), 200);
      assert.is(await status(server, after, `127.0.5.${i}`), 401);
    }
  } finally {
    await stop(server);
  }
});

test('a keys file root owns is trusted by a CLI running as another user', async ({ dir, env, file }) => {
  await createKey(env);
  chmodSync(file, 0o644);
  chmodSync(dir, 0o755);
  const out = execFileSync('runuser', ['-u', 'nobody', '--', process.execPath, MAIN, 'keys', 'list'], { encoding: 'utf8', env: { ...TEST_ENV, PATH: process.env['PATH'] ?? '', ...env } });
  assert.is(out.trim().split('\n').length, 2);
});

test.run();
