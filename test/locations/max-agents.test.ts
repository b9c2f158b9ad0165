import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stopServers } from '../support/child-server';
import { agentKeysFile, hello, listedNames, rawPeer, startHub, waitListed } from '../support/agents';

test('NETTOOLS_MAX_AGENTS refuses the agent over the cap with 503 before the upgrade', async () => {
  const keys = agentKeysFile();
  const fra = await keys.create('de-fra');
  const nyc = await keys.create('us-nyc');
  const hub = await startHub(keys, { NETTOOLS_MAX_AGENTS: '1' });
  try {
    const first = rawPeer(hub.port, fra);
    await first.opened;
    first.ws.send(hello('de-fra'));
    await waitListed(hub.base, 'de-fra');
    assert.is(await rawPeer(hub.port, nyc).refused, 503);
    assert.equal(await listedNames(hub.base), ['local', 'de-fra']);
    first.ws.close();
  } finally {
    await stopServers(hub);
    keys.remove();
  }
});

test('at the cap, a new connection for a listed location still replaces the old one', async () => {
  const keys = agentKeysFile();
  const fra = await keys.create('de-fra');
  const hub = await startHub(keys, { NETTOOLS_MAX_AGENTS: '1' });
  try {
    const first = rawPeer(hub.port, fra);
    await first.opened;
    first.ws.send(hello('de-fra'));
    await waitListed(hub.base, 'de-fra');
    const second = rawPeer(hub.port, fra);
    await second.opened;
    second.ws.send(hello('de-fra'));
    assert.is((await first.closed).code, 4000);
    assert.equal(await listedNames(hub.base), ['local', 'de-fra']);
    second.ws.close();
  } finally {
    await stopServers(hub);
    keys.remove();
  }
});

test.run();
