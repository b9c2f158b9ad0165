import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chownSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureImage, runNettools, runOnce } from '../support/podman';

// The keys file lives outside the image (docs/deploying.md, "In a container"): a host directory owned by
// the image's user (10001), where the keys CLI run in the image writes, mounted read-only into the
// serving container.
const test = suite<{ dir: string }>('API keys in the container');
const KEYS = { NETTOOLS_API_KEYS_FILE: '/var/lib/nettools/keys/api-keys', NETTOOLS_PLANS: 'pro=600/60s:16' };

test.before(async (ctx) => {
  await ensureImage();
  ctx.dir = mkdtempSync(join(tmpdir(), 'nt-container-keys-'));
  chownSync(ctx.dir, 10001, 10001);
});

test.after(({ dir }) => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a key made by the keys CLI in the image is honoured by a server that mounts the file read-only', async ({ dir }) => {
  const made = await runOnce(['--volume', `${dir}:/var/lib/nettools/keys`], ['keys', 'create', '--plan', 'pro'], KEYS);
  assert.is(made.code, 0, made.stderr);
  const key = made.stdout.trim();
  const file = statSync(join(dir, 'api-keys'));
  assert.equal([file.uid, file.mode & 0o777], [10001, 0o600]);
  const server = await runNettools({ env: KEYS, podmanArgs: ['--volume', `${dir}:/var/lib/nettools/keys:ro`] });
  try {
    assert.is(server.listening.apiKeys, 1);
    const keyed = await fetch(`${server.base}/api/limits`, { headers: { authorization: `Bearer ${key}` } });
    assert.is(keyed.status, 200);
    assert.is(((await keyed.json()) as { plan: string }).plan, 'pro');
    const anonymous = await fetch(`${server.base}/api/limits`);
    assert.is(((await anonymous.json()) as { plan: string }).plan, 'default');
  } finally {
    await server.remove();
  }
});

test.run();
