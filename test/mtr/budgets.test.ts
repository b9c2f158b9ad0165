// A streamed mtr pays as it goes in every deployment shape: one caller token and one unit of the
// destination's trace budget per started ten cycles, on one worker, on two worker threads (shared memory)
// and on two instances sharing Redis. The admission pays cycles 1 to 10, cycle 11 the second ten; with
// two of each, cycle 21 is refused and the stream ends with its problem. Only loopback addresses are probed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseNdjson, postStream } from '../api/stream-reader';
import { spawnServer, stopServers, type ChildServer } from '../support/child-server';
import { postJson } from '../support/http';
import { startRedis, type RedisServer } from '../support/redis';

const test = suite<{ redis: RedisServer }>('mtr streams on every budget');

test.before(async (ctx) => {
  ctx.redis = await startRedis();
});

test.after(async (ctx) => {
  await ctx.redis?.stop();
});

const OPEN = { NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' };
const TWO_TOKENS = { ...OPEN, NETTOOLS_RATE_LIMIT: '2/60s', NETTOOLS_TARGET_TRACES_PER_MINUTE: '1000' };
const TWO_UNITS = { ...OPEN, NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_TARGET_TRACES_PER_MINUTE: '2' };

// 25 cycles asked for; the events that came and the problem's code, if one ended the stream.
async function mtrStream(server: ChildServer, host: string): Promise<{ cycles: number; last: string; code?: string }> {
  const s = await postStream(server.base, '/api/tools/mtr', { host, cycles: 25, intervalMs: 200, maxHops: 2, timeoutMs: 100 }, 'application/x-ndjson');
  assert.is(s.status, 200, s.text());
  await s.ended;
  const events = parseNdjson(s);
  const last = events.at(-1)!;
  return { cycles: events.filter((e) => e.event === 'cycle').length, last: last.event, code: last.data.code };
}

async function refusal(server: ChildServer, host: string): Promise<[number, string]> {
  const reply = await postJson(server.base, '/api/tools/mtr', { host, cycles: 1, timeoutMs: 100 });
  return [reply.status, reply.json<{ code: string }>().code];
}

for (const workers of ['1', '2']) {
  test(`${workers} worker(s): a 25-cycle stream on a 2-token caller bucket runs 20 cycles, then ends with rate-limited`, async () => {
    const server = await spawnServer({ ...TWO_TOKENS, NETTOOLS_WORKERS: workers });
    try {
      assert.equal(await mtrStream(server, '127.0.0.1'), { cycles: 20, last: 'problem', code: 'rate-limited' });
      assert.equal(await refusal(server, '127.0.0.1'), [429, 'rate-limited']);
    } finally {
      await stopServers(server);
    }
  });

  test(`${workers} worker(s): a 25-cycle stream on a destination budget of 2 runs 20 cycles, then ends with target-rate-limited`, async () => {
    const server = await spawnServer({ ...TWO_UNITS, NETTOOLS_WORKERS: workers });
    try {
      assert.equal(await mtrStream(server, '127.0.0.1'), { cycles: 20, last: 'problem', code: 'target-rate-limited' });
      assert.equal(await refusal(server, '127.0.0.1'), [429, 'target-rate-limited']);
    } finally {
      await stopServers(server);
    }
  });
}

test('Redis: a stream pays into the caller bucket both instances share; the other instance finds it spent', async ({ redis }) => {
  const env = { ...TWO_TOKENS, NETTOOLS_REDIS_URL: redis.url };
  const [a, b] = [await spawnServer(env), await spawnServer(env)];
  try {
    assert.equal(await mtrStream(a, '127.0.0.1'), { cycles: 20, last: 'problem', code: 'rate-limited' });
    assert.equal(await refusal(b, '127.0.0.1'), [429, 'rate-limited']);
  } finally {
    await stopServers(a, b);
  }
});

test("Redis: a stream pays into the destination's trace budget both instances share; the other instance finds it spent", async ({ redis }) => {
  // A destination of its own: the caller bucket of the test before is spent, this one pays none of it.
  const env = { ...TWO_UNITS, NETTOOLS_REDIS_URL: redis.url };
  const [a, b] = [await spawnServer(env), await spawnServer(env)];
  try {
    assert.equal(await mtrStream(a, '127.0.0.7'), { cycles: 20, last: 'problem', code: 'target-rate-limited' });
    assert.equal(await refusal(b, '127.0.0.7'), [429, 'target-rate-limited']);
  } finally {
    await stopServers(a, b);
  }
});

test.run();
