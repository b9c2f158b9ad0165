import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseNdjson, postStream } from '../api/stream-reader';
import { spawnServer, stopServers, type ChildServer } from '../support/child-server';
import { postJson } from '../support/http';
import { startRedis, type RedisServer } from '../support/redis';
import { waitFor } from '../support/wait';

// Long streams pay as they go in every deployment shape: the caller's bucket and the target's budget in
// shared memory (worker threads) and in Redis (two instances) count stream rounds as they count requests.
// Pings go to 127.0.0.1 only.
const test = suite<{ redis: RedisServer }>('streams on shared budgets');

test.before(async (ctx) => {
  ctx.redis = await startRedis();
});

test.after(async (ctx) => {
  await ctx.redis?.stop();
});

async function streamEvents(server: ChildServer, body: Record<string, unknown>) {
  const s = await postStream(server.base, '/api/tools/ping', body, 'application/x-ndjson');
  await s.ended;
  return parseNdjson(s);
}

const FORTY = { host: '127.0.0.1', count: 40, intervalMs: 100 };

test('two worker threads: a 40-echo stream on a 3-token bucket ends after 30 echoes with rate-limited', async () => {
  const server = await spawnServer({ NETTOOLS_WORKERS: '2', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '3/60s' });
  try {
    const events = await streamEvents(server, FORTY);
    assert.is(events.filter((e) => e.event === 'reply').length, 30);
    assert.is(events.at(-1)!.data.code, 'rate-limited');
    assert.is((await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 })).status, 429);
  } finally {
    await stopServers(server);
  }
});

test('Redis: a stream pays into the bucket every instance shares; a request to the other instance finds it spent', async ({ redis }) => {
  const env = { NETTOOLS_REDIS_URL: redis.url, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '3/60s' };
  const a = await spawnServer(env);
  const b = await spawnServer(env);
  try {
    const events = await streamEvents(a, FORTY);
    assert.is(events.filter((e) => e.event === 'reply').length, 30);
    assert.is(events.at(-1)!.data.code, 'rate-limited');
    assert.is((await postJson(b.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 })).status, 429);
  } finally {
    await stopServers(a, b);
  }
});

test("Redis: a stream's later rounds come from the target budget the instances share", async ({ redis }) => {
  const env = { NETTOOLS_REDIS_URL: redis.url, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_TARGET_ECHOES_PER_SECOND: '10' };
  const a = await spawnServer(env);
  const b = await spawnServer(env);
  try {
    const s = await postStream(a.base, '/api/tools/ping', { host: '127.0.0.1', count: 20, intervalMs: 100 }, 'application/x-ndjson');
    // Half a second in, the other instance takes three of the five echoes that refilled: the second round
    // of the stream, at one second, finds seven where it needs ten.
    await waitFor('the sixth reply', async () => (s.text().match(/"event":"reply"/g) ?? []).length >= 6, { everyMs: 5 });
    const other = await postJson(b.base, '/api/tools/ping', { host: '127.0.0.1', count: 3, intervalMs: 100 });
    assert.is(other.status, 200, other.text);
    await s.ended;
    const events = parseNdjson(s);
    assert.is(events.filter((e) => e.event === 'reply').length, 10);
    assert.is(events.at(-1)!.data.code, 'target-rate-limited');
  } finally {
    await stopServers(a, b);
  }
});

test.run();
