import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, writeFileSync } from 'node:fs';
import { runToExit, stopServers } from '../support/child-server';
import { agentKeysFile, connectUrl, hello, listedNames, rawPeer, spawnAgent, startHub, stopAgent, waitListed } from '../support/agents';
import { waitFor } from '../support/wait';

test('a hub refuses to start on an agent keys file others may write, as it does for API keys', async () => {
  const keys = agentKeysFile();
  try {
    chmodSync(keys.file, 0o666);
    const { code, stderr } = await runToExit({ NETTOOLS_AGENT_KEYS_FILE: keys.file });
    assert.is(code, 2);
    assert.match(stderr, /^nettools: NETTOOLS_AGENT_KEYS_FILE: .*writable by its group and others/);
  } finally {
    keys.remove();
  }
});

test('a reload of a file that does not parse keeps the agent keys in force and the agents connected', async () => {
  const keys = agentKeysFile();
  const key = await keys.create('de-fra');
  const hub = await startHub(keys);
  try {
    const peer = rawPeer(hub.port, key);
    await peer.opened;
    peer.ws.send(hello('de-fra'));
    await waitListed(hub.base, 'de-fra');
    writeFileSync(keys.file, 'not a record\n');
    hub.child.kill('SIGHUP');
    await waitFor('the failed reload', () => hub.logs.some((l) => l.includes('"agent keys reload failed; the previous keys stay in force"')));
    assert.equal(await listedNames(hub.base), ['local', 'de-fra']);
    assert.is(peer.ws.readyState, peer.ws.OPEN);
    peer.ws.close();
  } finally {
    await stopServers(hub);
    keys.remove();
  }
});

test('a hub stopped with SIGTERM tells its agents it is going away and exits 0', async () => {
  const keys = agentKeysFile();
  const key = await keys.create('de-fra');
  const hub = await startHub(keys);
  const agent = spawnAgent({ NETTOOLS_HUB_URL: connectUrl(hub.port), NETTOOLS_AGENT_KEY: key, NETTOOLS_LOCATION: 'de-fra' });
  try {
    await waitListed(hub.base, 'de-fra');
    hub.child.kill('SIGTERM');
    assert.equal(await hub.exited, { code: 0, signal: null });
    await waitFor('the agent to see the hub go', () => agent.logs.some((l) => l['msg'] === 'hub connection ended; dialling again' && l['code'] === 1001));
  } finally {
    await stopAgent(agent);
    await stopServers(hub);
    keys.remove();
  }
});

test.run();
