import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { stopServers, type ChildServer } from '../support/child-server';
import { agentKeysFile, connectUrl, hello, listedNames, rawPeer, spawnAgent, startHub, stopAgent, type AgentKeys } from '../support/agents';
import { waitFor } from '../support/wait';

const test = suite<{ keys: AgentKeys; key: string; hub: ChildServer }>('the hub refuses agents without a key for their location');

test.before.each(async (ctx) => {
  ctx.keys = agentKeysFile();
  ctx.key = await ctx.keys.create('de-fra');
  ctx.hub = await startHub(ctx.keys);
});

test.after.each(async (ctx) => {
  await stopServers(ctx.hub);
  ctx.keys.remove();
});

// A well-formed key the hub never issued.
const STRANGER = 'nt_' + 'A'.repeat(43);

test('a wrong key is refused with 401 before the upgrade', async ({ hub }) => {
  const peer = rawPeer(hub.port, STRANGER);
  assert.is(await peer.refused, 401);
  assert.equal(await listedNames(hub.base), ['local']);
});

test('a missing key is refused with 401 before the upgrade', async ({ hub }) => {
  const peer = rawPeer(hub.port, null);
  assert.is(await peer.refused, 401);
  assert.equal(await listedNames(hub.base), ['local']);
});

test('a hello for another location than the key was made for closes the connection, and nothing is listed', async ({ hub, key }) => {
  const peer = rawPeer(hub.port, key);
  await peer.opened;
  peer.ws.send(hello('us-east'));
  const { code, reason } = await peer.closed;
  assert.is(code, 1008);
  assert.match(reason, 'this key is for location de-fra');
  assert.equal(await listedNames(hub.base), ['local']);
});

test("a hello that takes the hub's own location is refused", async (ctx) => {
  const key = await ctx.keys.create('local');
  ctx.hub.child.kill('SIGHUP');
  await waitFor('agent keys reloaded', () => ctx.hub.logs.some((l) => l.includes('"agent keys reloaded"')));
  const peer = rawPeer(ctx.hub.port, key);
  await peer.opened;
  peer.ws.send(hello('local'));
  assert.is((await peer.closed).code, 1008);
  assert.equal(await listedNames(ctx.hub.base), ['local']);
});

test('an agent process with a wrong key keeps dialling and is never listed', async ({ hub }) => {
  const agent = spawnAgent({ NETTOOLS_HUB_URL: connectUrl(hub.port), NETTOOLS_AGENT_KEY: STRANGER, NETTOOLS_LOCATION: 'de-fra' });
  try {
    await waitFor('two refused dials', () => agent.logs.filter((l) => String(l['error']).includes('401')).length >= 2);
    assert.is(agent.saw('connected to hub'), 0);
    assert.equal(await listedNames(hub.base), ['local']);
  } finally {
    await stopAgent(agent);
  }
});

test.run();
