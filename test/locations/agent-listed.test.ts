import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { stopServers, type ChildServer } from '../support/child-server';
import { request } from '../support/http';
import { agentKeysFile, connectUrl, locations, spawnAgent, startHub, stopAgent, waitListed, type AgentKeys, type ChildAgent } from '../support/agents';
import { waitFor } from '../support/wait';

const test = suite<{ keys: AgentKeys; key: string; hub: ChildServer; agents: ChildAgent[] }>('an agent is listed while it is connected');

test.before.each(async (ctx) => {
  ctx.keys = agentKeysFile();
  ctx.agents = [];
  // The hub reads its agent keys at start (and on SIGHUP): the key exists before the hub.
  ctx.key = await ctx.keys.create('de-fra');
  ctx.hub = await startHub(ctx.keys, { NETTOOLS_LOCATION: 'hub-1', NETTOOLS_LOCATION_LABELS: 'country=NL' });
});

test.after.each(async (ctx) => {
  for (const a of ctx.agents) await stopAgent(a);
  await stopServers(ctx.hub);
  ctx.keys.remove();
});

const agentEnv = (port: number, key: string) => ({
  NETTOOLS_HUB_URL: connectUrl(port),
  NETTOOLS_AGENT_KEY: key,
  NETTOOLS_LOCATION: 'de-fra',
  NETTOOLS_LOCATION_LABELS: 'country=DE,city=Frankfurt,asn=64500',
});

test('GET /api/locations lists the hub itself under NETTOOLS_LOCATION with its labels and tools', async ({ hub }) => {
  const [self, ...others] = await locations(hub.base);
  assert.equal(others, []);
  assert.is(self!.name, 'hub-1');
  assert.equal(self!.labels, { country: 'NL' });
  assert.ok(self!.tools.includes('ping') && self!.tools.includes('dns'), JSON.stringify(self!.tools));
  assert.ok(!Number.isNaN(Date.parse(self!.connectedSince)));
});

test('an agent with a key from keys create --agent is listed with its labels, tools and version, and no address', async (ctx) => {
  const agent = spawnAgent(agentEnv(ctx.hub.port, ctx.key));
  ctx.agents.push(agent);
  await waitListed(ctx.hub.base, 'de-fra');
  const listed = (await locations(ctx.hub.base)).find((l) => l.name === 'de-fra')!;
  assert.equal(listed.labels, { country: 'DE', city: 'Frankfurt', asn: '64500' });
  assert.ok(listed.tools.includes('ping') && listed.tools.includes('dns'), JSON.stringify(listed.tools));
  assert.match(listed.version, /^\d+\.\d+\.\d+/);
  assert.equal(Object.keys(listed).sort(), ['connectedSince', 'labels', 'name', 'tools', 'version']);
  assert.not.match(JSON.stringify(listed), '127.0.0.1');
});

test('the agent logs one line when connected', async (ctx) => {
  const agent = spawnAgent(agentEnv(ctx.hub.port, ctx.key));
  ctx.agents.push(agent);
  await waitFor('connected line', () => agent.saw('connected to hub') === 1);
  await waitListed(ctx.hub.base, 'de-fra');
  assert.is(agent.saw('reconnected to hub'), 0);
});

test('nettools_agents_connected counts the connected agents', async (ctx) => {
  const gauge = async () => Number(/^nettools_agents_connected (\d+)$/m.exec((await request(ctx.hub.base, '/metrics')).text)?.[1]);
  assert.is(await gauge(), 0);
  ctx.agents.push(spawnAgent(agentEnv(ctx.hub.port, ctx.key)));
  await waitListed(ctx.hub.base, 'de-fra');
  assert.is(await gauge(), 1);
});

test('an agent that exits on SIGTERM exits 0 and leaves the list', async (ctx) => {
  const agent = spawnAgent(agentEnv(ctx.hub.port, ctx.key));
  ctx.agents.push(agent);
  await waitListed(ctx.hub.base, 'de-fra');
  agent.child.kill('SIGTERM');
  assert.equal(await agent.exited, { code: 0, signal: null });
  await waitListed(ctx.hub.base, 'de-fra', false);
});

test('an agent killed outright leaves the list', async (ctx) => {
  const agent = spawnAgent(agentEnv(ctx.hub.port, ctx.key));
  ctx.agents.push(agent);
  await waitListed(ctx.hub.base, 'de-fra');
  agent.child.kill('SIGKILL');
  await agent.exited;
  await waitListed(ctx.hub.base, 'de-fra', false);
});

test.run();
