import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer } from '../support/child-server';
import { request } from '../support/http';
import { startRedis, type RedisServer } from '../support/redis';

// A bucket key in Redis holding garbage, seen from the outside: with NETTOOLS_REDIS_FAILURE=closed a
// script run that failed on it would be 503 for every client of that run, and for that client forever.
const test = suite<{ redis: RedisServer }>('a bucket Redis holds as garbage');

test.before(async (ctx) => {
  ctx.redis = await startRedis();
});

test.after(async (ctx) => {
  await ctx.redis?.stop();
});

const bad = (base: string, from: string) => request(base, '/api/tools/dns', { localAddress: from, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

test('closed mode: the client whose bucket is garbage and the clients beside it are served, and its key is a bucket again', async ({ redis }) => {
  await redis.command('SET', 'nettools:b:127.0.0.71', '-9999999999999999999999 0');
  const server = await spawnServer({ NETTOOLS_REDIS_URL: redis.url, NETTOOLS_REDIS_FAILURE: 'closed', NETTOOLS_RATE_LIMIT: '10/1h' });
  try {
    const replies = await Promise.all(['127.0.0.71', '127.0.0.72', '127.0.0.73', '127.0.0.74'].map((from) => bad(server.base, from)));
    assert.equal(replies.map((r) => [r.status, r.headers['x-ratelimit-remaining']]), Array(4).fill([400, '9']));
    // Nine tokens of an hour's window, stamped by Redis's clock, expiring when full again (an hour / 10).
    assert.match(await redis.command('GET', 'nettools:b:127.0.0.71'), /^32400000 \d{13}$/);
    const ttl = Number(await redis.command('TTL', 'nettools:b:127.0.0.71'));
    assert.ok(ttl > 0 && ttl <= 360, `TTL ${ttl}`);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});

test.run();
