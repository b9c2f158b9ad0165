import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chownSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureImage, podman, runNettools, runOnce, type Container } from '../support/podman';
import { waitFor } from '../support/wait';

// The keys file lives outside the image (docs/deploying.md, "In a container"): a host directory owned by
// the image's user (10001), where the keys CLI run in the image writes, mounted read-only into the
// serving container, which re-reads it on SIGHUP as on a host.
const test = suite<{ dir: string; server: Container; key: string }>('API keys in the container');
const KEYS = { NETTOOLS_API_KEYS_FILE: '/var/lib/nettools/keys/api-keys', NETTOOLS_PLANS: 'pro=600/60s:16,team=60/60s:4' };

async function createKey(dir: string, plan: string): Promise<string> {
  const made = await runOnce(['--volume', `${dir}:/var/lib/nettools/keys`], ['keys', 'create', '--plan', plan], KEYS);
  assert.is(made.code, 0, made.stderr);
  return made.stdout.trim();
}

async function planOf(server: Container, key: string | null): Promise<string> {
  const res = await fetch(`${server.base}/api/limits`, key ? { headers: { authorization: `Bearer ${key}` } } : {});
  return ((await res.json()) as { plan?: string; code?: string }).plan ?? `status ${res.status}`;
}

test.before(async (ctx) => {
  await ensureImage();
  ctx.dir = mkdtempSync(join(tmpdir(), 'nt-container-keys-'));
  chownSync(ctx.dir, 10001, 10001);
  ctx.key = await createKey(ctx.dir, 'pro');
  ctx.server = await runNettools({ env: KEYS, podmanArgs: ['--volume', `${ctx.dir}:/var/lib/nettools/keys:ro`] });
});

test.after(async ({ dir, server }) => {
  await server?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the keys CLI in the image writes a file the image user owns, mode 0600', ({ dir }) => {
  const file = statSync(join(dir, 'api-keys'));
  assert.equal([file.uid, file.mode & 0o777], [10001, 0o600]);
});

test('a server that mounts the keys file read-only gives a key its plan', async ({ server, key }) => {
  assert.is(server.listening.apiKeys, 1);
  assert.is(await planOf(server, key), 'pro');
  assert.is(await planOf(server, null), 'default');
});

test('a key added while it runs is honoured after podman kill --signal HUP', async ({ dir, server }) => {
  const added = await createKey(dir, 'team');
  assert.is.not(await planOf(server, added), 'team');
  const hup = await podman(['kill', '--signal', 'HUP', server.name]);
  assert.is(hup.code, 0, hup.stderr);
  await waitFor('the added key to get its plan', async () => (await planOf(server, added)) === 'team', { everyMs: 100 });
});

test.run();
