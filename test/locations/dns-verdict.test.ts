import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { stopServers, type ChildServer } from '../support/child-server';
import { postJson } from '../support/http';
import { agentKeysFile, connectUrl, spawnAgent, startHub, stopAgent, waitListed, type AgentKeys, type ChildAgent } from '../support/agents';
import { startKnot, type KnotServer } from '../support/knot';

// dns at several locations: each location asks its own resolvers, and the verdict says whether every
// location saw the same records. Two Knot servers give two views of one name, as two networks might.

interface Ctx {
  keys: AgentKeys;
  hub: ChildServer;
  agents: ChildAgent[];
  a: KnotServer;
  b: KnotServer;
}

const test = suite<Ctx>('dns with locations: one verdict over every location\'s resolvers');

test.before(async (ctx) => {
  ctx.a = await startKnot([{ domain: 'loc.test', records: ['www A 192.0.2.1'] }], '127.0.0.71');
  ctx.b = await startKnot([{ domain: 'loc.test', records: ['www A 192.0.2.99'] }], '127.0.0.72');
  const viewA = `a=127.0.0.71:${ctx.a.port}`;
  ctx.keys = agentKeysFile();
  const keys = await Promise.all(['same', 'other'].map((n) => ctx.keys.create(n)));
  ctx.hub = await startHub(ctx.keys, { NETTOOLS_LOCATION: 'hub', NETTOOLS_RESOLVERS: viewA });
  const agent = (name: string, key: string, resolvers: string) => spawnAgent({ NETTOOLS_HUB_URL: connectUrl(ctx.hub.port), NETTOOLS_AGENT_KEY: key, NETTOOLS_LOCATION: name, NETTOOLS_RESOLVERS: resolvers });
  ctx.agents = [agent('same', keys[0]!, viewA), agent('other', keys[1]!, `b=127.0.0.72:${ctx.b.port}`)];
  for (const name of ['same', 'other']) await waitListed(ctx.hub.base, name);
});

test.after(async (ctx) => {
  for (const a of ctx.agents ?? []) await stopAgent(a);
  if (ctx.hub) await stopServers(ctx.hub);
  ctx.keys?.remove();
  await ctx.a?.stop();
  await ctx.b?.stop();
});

test('locations whose resolvers give the same records are consistent', async (ctx) => {
  const reply = await postJson(ctx.hub.base, '/api/tools/dns', { domain: 'www.loc.test', types: ['A'], locations: ['hub', 'same'] });
  assert.is(reply.status, 200, reply.text);
  const { locations, verdict } = reply.json();
  assert.equal(locations.hub.records.A.map((r: any) => r.address), ['192.0.2.1']);
  assert.equal(locations.same.records.A.map((r: any) => r.address), ['192.0.2.1']);
  assert.equal(verdict, { consistent: true, answered: 2, of: 2 });
});

test('a location whose resolvers give other records makes the verdict inconsistent', async (ctx) => {
  const reply = await postJson(ctx.hub.base, '/api/tools/dns', { domain: 'www.loc.test', types: ['A'], locations: ['hub', 'other'] });
  assert.is(reply.status, 200, reply.text);
  const { locations, verdict } = reply.json();
  assert.equal(locations.other.records.A.map((r: any) => r.address), ['192.0.2.99']);
  assert.equal(verdict, { consistent: false, answered: 2, of: 2 });
});

test.run();
