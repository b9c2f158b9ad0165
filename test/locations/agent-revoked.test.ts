import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runToExit, stopServers } from '../support/child-server';
import { agentKeysFile, hello, listedNames, rawPeer, startHub, waitListed } from '../support/agents';
import { waitFor } from '../support/wait';
import { listedEverywhere } from '../support/worker-served';

test('keys revoke and SIGHUP to the hub close that agent\'s connection, and only that one', async () => {
  const keys = agentKeysFile();
  const revokedKey = await keys.create('de-fra');
  const keptKey = await keys.create('us-east');
  const hub = await startHub(keys);
  try {
    const revoked = rawPeer(hub.port, revokedKey);
    const kept = rawPeer(hub.port, keptKey);
    await Promise.all([revoked.opened, kept.opened]);
    revoked.ws.send(hello('de-fra'));
    kept.ws.send(hello('us-east'));
    await waitListed(hub.base, 'de-fra');
    await waitListed(hub.base, 'us-east');
    const done = await runToExit({ NETTOOLS_AGENT_KEYS_FILE: keys.file }, ['keys', 'revoke', revokedKey.slice(3, 11)]);
    assert.is(done.code, 0, done.stderr);
    hub.child.kill('SIGHUP');
    const { code, reason } = await revoked.closed;
    assert.is(code, 4001);
    assert.match(reason, 'revoked');
    assert.equal(await listedNames(hub.base), ['local', 'us-east']);
    assert.is(kept.ws.readyState, kept.ws.OPEN);
    kept.ws.close();
  } finally {
    await stopServers(hub);
    keys.remove();
  }
});

test('on worker threads, SIGHUP closes the revoked agent\'s connection on whichever worker holds it', async () => {
  const keys = agentKeysFile();
  const revokedKey = await keys.create('de-fra');
  const hub = await startHub(keys, { NETTOOLS_WORKERS: '2' });
  try {
    const revoked = rawPeer(hub.port, revokedKey);
    await revoked.opened;
    revoked.ws.send(hello('de-fra'));
    await listedEverywhere(hub, 'de-fra');
    const done = await runToExit({ NETTOOLS_AGENT_KEYS_FILE: keys.file }, ['keys', 'revoke', revokedKey.slice(3, 11)]);
    assert.is(done.code, 0, done.stderr);
    hub.child.kill('SIGHUP');
    assert.is((await revoked.closed).code, 4001);
    await listedEverywhere(hub, 'de-fra', false);
    // Both workers read the file again, and neither lets the key in any more.
    await waitFor('both workers reloading their agent keys', () => hub.logs.filter((l) => l.includes('"agent keys reloaded"')).length >= 2);
    for (let i = 0; i < 4; i++) assert.is(await rawPeer(hub.port, revokedKey).refused, 401);
  } finally {
    await stopServers(hub);
    keys.remove();
  }
});

test('a revoked key is refused at the next upgrade', async () => {
  const keys = agentKeysFile();
  const key = await keys.create('de-fra');
  await runToExit({ NETTOOLS_AGENT_KEYS_FILE: keys.file }, ['keys', 'revoke', key.slice(3, 11)]);
  const hub = await startHub(keys);
  try {
    assert.is(await rawPeer(hub.port, key).refused, 401);
  } finally {
    await stopServers(hub);
    keys.remove();
  }
});

test.run();
