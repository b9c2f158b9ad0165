import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { stopServers, type ChildServer } from '../support/child-server';
import { postJson } from '../support/http';
import { agentKeysFile, connectUrl, spawnAgent, startHub, stopAgent, waitListed, type AgentKeys, type ChildAgent } from '../support/agents';

// A target's budget at the hub counts what every location sends it: N agents must not send one target N
// times what the hub alone may. Each agent also keeps its own budget (here a generous one).

interface Ctx {
  keys: AgentKeys;
  hub: ChildServer;
  agents: ChildAgent[];
}

const test = suite<Ctx>('the hub\'s per-target budgets count every location\'s probes');

test.before.each(async (ctx) => {
  ctx.keys = agentKeysFile();
  const keys = await Promise.all(['ams', 'fra'].map((n) => ctx.keys.create(n)));
  // Three traces a minute to one target, from the whole hub; plenty of caller budget.
  ctx.hub = await startHub(ctx.keys, { NETTOOLS_LOCATION: 'hub', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_TRACES_PER_MINUTE: '3', NETTOOLS_RATE_LIMIT: '100/60s' });
  ctx.agents = ['ams', 'fra'].map((name, i) =>
    spawnAgent({ NETTOOLS_HUB_URL: connectUrl(ctx.hub.port), NETTOOLS_AGENT_KEY: keys[i]!, NETTOOLS_LOCATION: name, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_TRACES_PER_MINUTE: '100' }),
  );
  for (const name of ['ams', 'fra']) await waitListed(ctx.hub.base, name);
});

test.after.each(async (ctx) => {
  for (const a of ctx.agents) await stopAgent(a);
  await stopServers(ctx.hub);
  ctx.keys.remove();
});

const trace = (ctx: Ctx, locations: string[]) => postJson(ctx.hub.base, '/api/tools/traceroute', { host: '127.0.0.1', maxHops: 2, locations });

test('traces at agents spend the hub\'s trace budget of the target: the fourth location in a minute is refused', async (ctx) => {
  const first = (await trace(ctx, ['ams', 'fra'])).json();
  assert.is(first.locations.ams.destinationReached, true);
  assert.is(first.locations.fra.destinationReached, true);
  const second = (await trace(ctx, ['hub', 'ams'])).json();
  const outcomes = [second.locations.hub, second.locations.ams].map((l: any) => l.problem?.code ?? 'measured');
  // One unit left: one of the two is measured, the other refused by the hub's budget.
  assert.equal(outcomes.sort(), ['measured', 'target-rate-limited']);
  const third = (await trace(ctx, ['fra'])).json();
  assert.is(third.locations.fra.problem.code, 'target-rate-limited');
  assert.equal(third.verdict, { reached: 0, of: 1 });
});

test('a long streamed ping at an agent spends the hub\'s echo budget of the target round by round', async (ctx) => {
  // 20 echoes a second to one target from the whole hub (the default): a second location pinging the
  // same target at the same time finds the budget spent by the first one's first round and its own.
  const pings = await Promise.all(
    ['ams', 'fra', 'hub'].map((name) => postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 10, intervalMs: 100, locations: [name] })),
  );
  const refused = pings.filter((r) => r.json().locations[Object.keys(r.json().locations)[0]!].problem?.code === 'target-rate-limited');
  assert.is(refused.length, 1, pings.map((r) => r.text.slice(0, 200)).join('\n'));
});

test.run();
