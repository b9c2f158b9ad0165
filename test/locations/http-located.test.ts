import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { agentKeysFile, connectUrl, spawnAgent, startHub, stopAgent, waitListed, type AgentKeys, type ChildAgent } from '../support/agents';
import { stopServers, type ChildServer } from '../support/child-server';
import { postJson } from '../support/http';
import { startHttpSites, type HttpSites } from '../support/http-sites';

// The http check with `locations`: the hub and a real agent process each make it, and what each found
// comes back whole, a redirect refused at the agent with the redirect named.
interface Ctx {
  keys: AgentKeys;
  hub: ChildServer;
  agent: ChildAgent;
  sites: HttpSites;
}

const test = suite<Ctx>('http with locations');

test.before(async (ctx) => {
  ctx.sites = await startHttpSites('other.http.test');
  ctx.keys = agentKeysFile();
  ctx.hub = await startHub(ctx.keys, { NETTOOLS_LOCATION: 'hub', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '100/60s' });
  const key = await ctx.keys.create('ams');
  ctx.hub.child.kill('SIGHUP');
  ctx.agent = spawnAgent({ NETTOOLS_HUB_URL: connectUrl(ctx.hub.port), NETTOOLS_AGENT_KEY: key, NETTOOLS_LOCATION: 'ams', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
  await waitListed(ctx.hub.base, 'ams');
});

test.after(async (ctx) => {
  if (ctx.agent) await stopAgent(ctx.agent);
  if (ctx.hub) await stopServers(ctx.hub);
  ctx.keys?.remove();
  await ctx.sites?.stop();
});

test('each location answers the check, and the verdict counts those that got an answer', async ({ hub, sites }) => {
  const reply = await postJson(hub.base, '/api/tools/http', { url: `http://127.0.0.1:${sites.main}/`, locations: ['hub', 'ams'] });
  assert.is(reply.status, 200, reply.text);
  const body = reply.json();
  assert.equal([body.locations.hub.status, body.locations.ams.status], [200, 200]);
  assert.equal(body.verdict, { reached: 2, of: 2 });
});

test('a redirect refused at the agent comes back as its problem, naming the redirect', async ({ hub, sites }) => {
  const reply = await postJson(hub.base, '/api/tools/http', { url: `http://127.0.0.1:${sites.main}/to-port-25`, followRedirects: 1, locations: ['ams'] });
  assert.is(reply.status, 200, reply.text);
  const problem = reply.json().locations.ams.problem;
  assert.equal([problem.code, problem.range, problem.url, problem.redirects.length], ['target-forbidden', 'port', 'http://127.0.0.1:25/', 1]);
});

test.run();
