import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../architecture/source-files';

// npm run try on a machine without Knot DNS: one line saying how to install it, and nothing started. The
// script runs in a mount namespace of its own where /usr/sbin/knotd is /dev/null (not executable), so the
// machine's Knot is hidden from it alone.
test('npm run try without knotd says in one line how to install it, and exits 1', () => {
  const hidden = 'mount --bind /dev/null /usr/sbin/knotd && exec bash scripts/try.sh';
  const run = spawnSync('unshare', ['--mount', '--propagation', 'private', 'bash', '-c', hidden], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, PORT: '1', TRY_DNS_PORT: '1' }, // were anything started, it could not listen
  });
  assert.is(run.status, 1, run.stderr);
  assert.is(run.stdout, '');
  assert.equal(run.stderr.trimEnd().split('\n'), ["npm run try needs Knot DNS (knotd): install it with 'sudo apt-get install knot', then run it again."]);
});

test.run();
