import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, stopServers, type ChildServer } from '../support/child-server';
import { postChunked } from '../support/chunked-reader';
import { postJson } from '../support/http';
import { agentKeysFile, connectUrl, listedNames, spawnAgent, startHub, stopAgent, waitListed, type AgentKeys, type ChildAgent } from '../support/agents';
import { startRedis, type RedisServer } from '../support/redis';
import { waitFor } from '../support/wait';

// Two hubs on one Redis, as behind one load balancer: the agent is connected to hub B, and a request at
// hub A for its location is relayed through Redis, events, payments and its end included.

interface Ctx {
  redis: RedisServer;
  keys: AgentKeys;
  a: ChildServer;
  b: ChildServer;
  agent: ChildAgent;
}

const test = suite<Ctx>('a request at one hub runs at an agent of another hub on the same Redis');

test.before.each(async (ctx) => {
  ctx.redis = await startRedis();
  ctx.keys = agentKeysFile();
  const key = await ctx.keys.create('ams');
  const env = { NETTOOLS_REDIS_URL: ctx.redis.url, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '5/60s' };
  ctx.a = await spawnServer({ ...env, NETTOOLS_LOCATION: 'hub-a' });
  ctx.b = await startHub(ctx.keys, { ...env, NETTOOLS_LOCATION: 'hub-b' });
  ctx.agent = spawnAgent({ NETTOOLS_HUB_URL: connectUrl(ctx.b.port), NETTOOLS_AGENT_KEY: key, NETTOOLS_LOCATION: 'ams', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
  await waitListed(ctx.a.base, 'ams');
});

test.after.each(async (ctx) => {
  await stopAgent(ctx.agent);
  await stopServers(ctx.a, ctx.b);
  ctx.keys.remove();
  await ctx.redis.stop();
});

type Event = { event: string; data: Record<string, unknown> };
const events = (text: string): Event[] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Event);

test('hub A lists the agent connected to hub B', async (ctx) => {
  assert.equal(await listedNames(ctx.a.base), ['hub-a', 'ams']);
});

test('a JSON ping at hub A for the agent of hub B is measured there', async (ctx) => {
  const reply = await postJson(ctx.a.base, '/api/tools/ping', { host: '127.0.0.1', count: 2, intervalMs: 100, locations: ['hub-a', 'ams'] });
  assert.is(reply.status, 200, reply.text);
  const body = reply.json();
  assert.is(body.locations.ams.reachable, true);
  assert.is(body.locations.ams.packets.sent, 2);
  assert.equal(body.verdict, { reached: 2, of: 2 });
});

test('a streamed ping relayed through Redis pays the caller\'s shared bucket as it goes and ends whole', async (ctx) => {
  // 5 tokens, shared by both hubs: the request's own, then echo 11 and echo 21 of the agent's stream.
  const reply = await postJson(ctx.a.base, '/api/tools/ping', { host: '127.0.0.1', count: 21, intervalMs: 100, locations: ['ams'] }, { accept: 'application/x-ndjson' });
  const all = events(reply.text);
  assert.equal(all.filter((e) => e.event === 'reply').length, 21, reply.text.slice(0, 600));
  assert.is(all.at(-1)!.event, 'locations');
  // Three of five tokens spent, at either hub: two more requests, then 429.
  assert.is((await postJson(ctx.b.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 })).status, 200);
  assert.is((await postJson(ctx.a.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 })).status, 200);
  assert.is((await postJson(ctx.a.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 })).status, 429);
});

test('hub B killed mid-stream: hub A ends that location as location-offline', async (ctx) => {
  const stream = postChunked(ctx.a.port, '/api/tools/ping', { host: '127.0.0.1', count: 60, intervalMs: 200, locations: ['ams'] }, 'application/x-ndjson');
  await waitFor('a reply from ams', () => events(stream.text()).some((e) => e.event === 'reply'));
  ctx.b.child.kill('SIGKILL');
  await waitFor('the stream to end', () => stream.ended, { timeoutMs: 15_000 });
  const all = events(stream.text());
  const problem = all.find((e) => e.event === 'problem')!;
  assert.is(problem.data['code'], 'location-offline');
  assert.is(all.at(-1)!.event, 'locations');
});

test.run();
