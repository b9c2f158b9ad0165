import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { postJson } from '../support/http';
import { ensureImage, NET_RAW_ONLY, runNettools } from '../support/podman';

// nettools writes no file while serving, so the container runs with a read-only root file system
// (`--read-only`, and no tmpfs: podman's --read-only-tmpfs is turned off to prove nothing needs /tmp).
const test = suite('a read-only container');

test.before(ensureImage);

test('with --read-only and no writable /tmp it serves /health and a ping', async () => {
  const server = await runNettools({ podmanArgs: ['--read-only', '--read-only-tmpfs=false', ...NET_RAW_ONLY] });
  try {
    const touch = await server.exec(['sh', '-c', 'touch /tmp/x || touch /opt/nettools/x']);
    assert.is.not(touch.code, 0, 'the root file system is read-only');
    assert.is((await fetch(`${server.base}/health`)).status, 200);
    const reply = await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 });
    assert.is(reply.status, 200, reply.text);
    assert.is(reply.json().reachable, true);
  } finally {
    await server.remove();
  }
});

test.run();
