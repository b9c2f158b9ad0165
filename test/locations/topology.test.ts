import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { stopServers, type ChildServer } from '../support/child-server';
import { postJson } from '../support/http';
import { agentKeysFile, spawnAgent, startHub, stopAgent, waitListed, type AgentKeys, type ChildAgent } from '../support/agents';
import { createLocationsTopology, type LocationsTopology } from '../support/locations-topology';
import { startNginx, type Nginx } from '../support/nginx';
import { waitFor } from '../support/wait';

// A hub behind the shipped nginx config (TLS, WebSocket upgrades passed), and three agents in network
// namespaces that dial it over veth links and reach one target three ways: directly, through two routers,
// and through a router that refuses it. Each location's result must differ exactly as the paths do. The
// hub itself has no path to the target: no request here names it, so nothing leaves the test's namespaces.

interface Ctx {
  keys: AgentKeys;
  hub: ChildServer;
  nginx: Nginx;
  net: LocationsTopology;
  agents: ChildAgent[];
}

const test = suite<Ctx>('locations measure the paths they stand on');
const AGENTS = ['direct', 'routed', 'refused'];

test.before(async (ctx) => {
  ctx.net = createLocationsTopology();
  ctx.keys = agentKeysFile();
  const keys = await Promise.all(ctx.net.agents.map((a) => ctx.keys.create(a.name)));
  ctx.hub = await startHub(ctx.keys, { NETTOOLS_LOCATION: 'hub', NETTOOLS_TARGET_TRACES_PER_MINUTE: '100' });
  ctx.nginx = await startNginx(ctx.hub.port, [], { alsoOn: ctx.net.agents.map((a) => a.host.hostV4) });
  ctx.agents = ctx.net.agents.map((a, i) =>
    spawnAgent(
      {
        NETTOOLS_HUB_URL: `wss://${a.host.hostV4}:${ctx.nginx.port}/api/agents/connect`,
        NETTOOLS_AGENT_KEY: keys[i]!,
        NETTOOLS_LOCATION: a.name,
        // 198.18.0.0/15 is a special range, refused unless the operator allows it, as this test's does.
        NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true',
        NODE_EXTRA_CA_CERTS: ctx.nginx.certFile,
      },
      a.host.name,
    ),
  );
  for (const name of AGENTS) await waitListed(ctx.hub.base, name);
});

test.after(async (ctx) => {
  for (const a of ctx.agents ?? []) await stopAgent(a);
  await ctx.nginx?.stop();
  if (ctx.hub) await stopServers(ctx.hub);
  ctx.keys?.remove();
  ctx.net?.destroy();
});

test('agents dial the hub through nginx over wss and are listed', async (ctx) => {
  // Listed at the hello; each agent logs its line once the hub's welcome is back.
  for (const agent of ctx.agents) await waitFor('the agent to log its connection', () => agent.saw('connected to hub') === 1);
  for (const agent of ctx.agents) assert.is(agent.saw('reconnected to hub'), 0, agent.stderr());
});

test('ping: reached directly and through the routers, not through the refusing router; TTLs show the hops', async (ctx) => {
  const reply = await postJson(ctx.hub.base, '/api/tools/ping', { host: ctx.net.target, count: 2, intervalMs: 100, locations: AGENTS });
  assert.is(reply.status, 200, reply.text);
  const { locations, verdict } = reply.json();
  assert.is(locations.direct.reachable, true);
  assert.is(locations.routed.reachable, true);
  assert.is(locations.refused.reachable, false);
  assert.equal(locations.direct.replies.map((r: any) => r.ttl), [64, 64]);
  assert.equal(locations.routed.replies.map((r: any) => r.ttl), [62, 62]);
  assert.equal(verdict, { reached: 2, of: 3 });
});

test('traceroute: one hop direct, the two routers then the target routed, admin-prohibited at the refusing router', async (ctx) => {
  const reply = await postJson(ctx.hub.base, '/api/tools/traceroute', { host: ctx.net.target, maxHops: 5, locations: AGENTS });
  assert.is(reply.status, 200, reply.text);
  const { locations, verdict } = reply.json();
  const addresses = (trace: any) => trace.hops.map((h: any) => h.probes.find((p: any) => p.address)?.address);
  assert.equal(addresses(locations.direct), [ctx.net.target]);
  assert.equal(addresses(locations.routed), ctx.net.routedHops);
  assert.is(locations.refused.destinationReached, false);
  const last = locations.refused.hops.at(-1).probes.find((p: any) => p.icmp);
  assert.is(last.address, ctx.net.refusingRouter);
  assert.is(last.icmp.type, 3);
  assert.is(last.icmp.code, 13);
  assert.equal(verdict, { reached: 2, of: 3 });
});

test('a streamed traceroute at the three locations ends with the same verdict', async (ctx) => {
  const reply = await postJson(ctx.hub.base, '/api/tools/traceroute', { host: ctx.net.target, maxHops: 5, locations: AGENTS }, { accept: 'application/x-ndjson' });
  const events = reply.text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  for (const name of AGENTS) assert.equal(events.filter((e) => e.data.location === name && e.event === 'start').length, 1, name);
  assert.is(events.filter((e) => e.data.location === 'routed' && e.event === 'hop').length, 3);
  assert.equal(events.at(-1).data.verdict, { reached: 2, of: 3 });
});

test.run();
