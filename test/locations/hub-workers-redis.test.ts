import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, stopServers, type ChildServer } from '../support/child-server';
import { postJson } from '../support/http';
import { agentKeysFile, connectUrl, listedNames, spawnAgent, startHub, stopAgent, waitListed, type AgentKeys, type ChildAgent } from '../support/agents';
import { startRedis, type RedisServer } from '../support/redis';
import { listedEverywhere, onEachWorker } from '../support/worker-served';

// Redis and worker threads together: hub A runs on two workers and holds the agent on one of them; hub B
// (one thread) shares A's agents through Redis. Every worker of A and hub B measure at the agent.

interface Ctx {
  redis: RedisServer;
  keys: AgentKeys;
  a: ChildServer;
  b: ChildServer;
  agent: ChildAgent;
}

const test = suite<Ctx>('a hub on worker threads behind Redis shares its agents with its workers and other hubs');

test.before(async (ctx) => {
  ctx.redis = await startRedis();
  ctx.keys = agentKeysFile();
  const key = await ctx.keys.create('ams');
  const env = { NETTOOLS_REDIS_URL: ctx.redis.url, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1h', NETTOOLS_TARGET_ECHOES_PER_SECOND: '1000' };
  ctx.a = await startHub(ctx.keys, { ...env, NETTOOLS_LOCATION: 'hub-a', NETTOOLS_WORKERS: '2' });
  ctx.b = await spawnServer({ ...env, NETTOOLS_LOCATION: 'hub-b' });
  ctx.agent = spawnAgent({ NETTOOLS_HUB_URL: connectUrl(ctx.a.port), NETTOOLS_AGENT_KEY: key, NETTOOLS_LOCATION: 'ams', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
  await listedEverywhere(ctx.a, 'ams');
  await waitListed(ctx.b.base, 'ams');
});

test.after(async (ctx) => {
  if (ctx.agent) await stopAgent(ctx.agent);
  await stopServers(...[ctx.a, ctx.b].filter((s) => s !== undefined));
  ctx.keys?.remove();
  await ctx.redis?.stop();
});

const ping = (base: string, id?: string) => postJson(base, '/api/tools/ping', { host: '127.0.0.1', count: 1, locations: ['ams'] }, id === undefined ? {} : { 'x-request-id': id });

test('hub B lists the agent held by one worker of hub A', async ({ b }) => {
  assert.equal(await listedNames(b.base), ['hub-b', 'ams']);
});

test('a ping at hub B is measured at the agent on hub A', async ({ b }) => {
  const reply = await ping(b.base);
  assert.is(reply.status, 200, reply.text);
  assert.is(reply.json().locations.ams.packets.sent, 1);
});

test('a ping on either worker of hub A is measured at the agent', async ({ a }) => {
  await onEachWorker(a, 'ams', async (id) => {
    const reply = await ping(a.base, id);
    assert.is(reply.status, 200, reply.text);
    assert.is(reply.json().locations.ams.packets.sent, 1);
  });
});

test.run();
