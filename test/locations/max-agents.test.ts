import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stopServers } from '../support/child-server';
import { agentKeysFile, hello, listedNames, rawPeer, startHub, waitListed, type RawPeer } from '../support/agents';
import { listedEverywhere } from '../support/worker-served';

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

// With two worker threads each connection lands on either: eight tries, fresh connections, find both.
test('with worker threads the cap counts the agents of every worker', async () => {
  const keys = agentKeysFile();
  const fra = await keys.create('de-fra');
  const nyc = await keys.create('us-nyc');
  const hub = await startHub(keys, { NETTOOLS_MAX_AGENTS: '1', NETTOOLS_WORKERS: '2' });
  try {
    const first = rawPeer(hub.port, fra);
    await first.opened;
    first.ws.send(hello('de-fra'));
    await listedEverywhere(hub, 'de-fra');
    for (let i = 0; i < 8; i++) assert.is(await rawPeer(hub.port, nyc).refused, 503);
    first.ws.close();
  } finally {
    await stopServers(hub);
    keys.remove();
  }
});

test('with worker threads a new connection for a location replaces the old one on whichever worker it is', async () => {
  const keys = agentKeysFile();
  const fra = await keys.create('de-fra');
  const hub = await startHub(keys, { NETTOOLS_MAX_AGENTS: '1', NETTOOLS_WORKERS: '2' });
  try {
    let previous: RawPeer | null = null;
    const held = () => new Set(hub.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'agent connected').map((l) => l.worker as number));
    // Until connections have landed on both workers (one after another on different ones, at least once).
    for (let i = 0; i < 16 && held().size < 2; i++) {
      const peer = rawPeer(hub.port, fra);
      await peer.opened;
      peer.ws.send(hello('de-fra'));
      if (previous !== null) assert.is((await previous.closed).code, 4000);
      await listedEverywhere(hub, 'de-fra');
      previous = peer;
    }
    assert.equal([...held()].sort(), [0, 1], 'sixteen connections all landed on one worker');
    previous?.ws.close();
  } finally {
    await stopServers(hub);
    keys.remove();
  }
});

test.run();
