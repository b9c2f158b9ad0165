import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runToExit, spawnServer, stopServers, type ChildServer } from '../support/child-server';
import { postJson, request } from '../support/http';
import { assertProblem } from '../support/problem';
import { parsePromText, sampleValue } from '../support/prom-text';
import { startRedis, type RedisServer } from '../support/redis';
import { waitFor } from '../support/wait';

// Several nettools instances on one real Redis: together they admit what one would.
const test = suite<{ redis: RedisServer; dir: string }>('a shared budget in Redis');

test.before(async (ctx) => {
  ctx.redis = await startRedis();
  ctx.dir = mkdtempSync(join(tmpdir(), 'nt-redis-'));
});

test.after(async (ctx) => {
  await ctx.redis?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

function fakeTimeLibrary(): string {
  const lib = execFileSync('dpkg', ['-L', 'libfaketime'], { encoding: 'utf8' }).split('\n').find((l) => l.endsWith('/libfaketime.so.1'));
  if (lib === undefined) throw new Error('libfaketime is not installed (apt-get install faketime)');
  return lib;
}

const bad = (s: ChildServer, from = '127.0.0.1') => request(s.base, '/api/tools/dns', { localAddress: from, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

test('two instances admit exactly the budget between them, one clock skewed by an hour', async ({ redis }) => {
  const env = { NETTOOLS_REDIS_URL: redis.url, NETTOOLS_RATE_LIMIT: '10/1h' };
  const a = await spawnServer(env);
  // libfaketime preloaded into node itself (the faketime command would stand between us and node's signals).
  const b = await spawnServer({ ...env, LD_PRELOAD: fakeTimeLibrary(), FAKETIME: '+1h' });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await bad(i % 2 === 0 ? a : b, '127.0.0.41')).status);
    assert.equal([statuses.filter((s) => s === 400).length, statuses.filter((s) => s === 429).length], [10, 20]);
    // The skew is real: the instance under faketime stamps its epoch reset an hour later.
    // A fresh client on each, so each reset is one token's refill after its own clock.
    const resets = await Promise.all([a, b].map(async (s, i) => Number((await bad(s, `127.0.0.4${2 + 2 * i}`)).headers['x-ratelimit-reset'])));
    assert.ok((resets[1] as number) - (resets[0] as number) > 3500, JSON.stringify(resets));
  } finally {
    await stopServers(a, b);
  }
});

test('two instances of two worker threads each admit exactly the budget across all four', async ({ redis }) => {
  const env = { NETTOOLS_REDIS_URL: redis.url, NETTOOLS_RATE_LIMIT: '10/1h', NETTOOLS_WORKERS: '2' };
  const [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await bad(i % 2 === 0 ? a : b, '127.0.0.43')).status);
    assert.equal([statuses.filter((s) => s === 400).length, statuses.filter((s) => s === 429).length], [10, 20]);
  } finally {
    await stopServers(a, b);
  }
});

test('the per-target echo budget is shared by the instances', async ({ redis }) => {
  const env = { NETTOOLS_REDIS_URL: redis.url, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_ECHOES_PER_SECOND: '3' };
  const [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  try {
    // Each asks for the whole budget of 3: one is served; a second only after a whole second of refill.
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => postJson((i % 2 === 0 ? a : b).base, '/api/tools/ping', { host: '127.0.0.3', count: 3, intervalMs: 100 })));
    assert.equal([replies.filter((r) => r.status === 200).length, replies.filter((r) => r.status === 429).length], [1, 5]);
  } finally {
    await stopServers(a, b);
  }
});

test('the per-target trace budget is shared by the instances', async ({ redis }) => {
  const env = { NETTOOLS_REDIS_URL: redis.url, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_TRACES_PER_MINUTE: '2' };
  const [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  try {
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => postJson((i % 2 === 0 ? a : b).base, '/api/tools/traceroute', { host: '127.0.0.6', probesPerHop: 1 })));
    assert.equal([replies.filter((r) => r.status === 200).length, replies.filter((r) => r.status === 429).length], [2, 4]);
    for (const r of replies.filter((x) => x.status === 429)) assertProblem(r, 429, 'target-rate-limited');
  } finally {
    await stopServers(a, b);
  }
});

test('keys in Redis are prefixed, expire, and never hold an API key', async ({ redis, dir }) => {
  const env = { NETTOOLS_REDIS_URL: redis.url, NETTOOLS_API_KEYS_FILE: join(dir, 'keys'), NETTOOLS_PLANS: 'pro=100/60s' };
  const key = (await runToExit(env, ['keys', 'create', '--plan', 'pro'])).stdout.trim();
  const server = await spawnServer(env);
  try {
    await postJson(server.base, '/api/tools/dns', {}, { authorization: `Bearer ${key}` });
    const keys = (await redis.command('--scan', '--pattern', '*')).split('\n');
    assert.ok(keys.includes(`nettools:b:key:${key.slice(3, 11)}`), keys.join(' '));
    assert.ok(keys.every((k) => k.startsWith('nettools:') && !k.includes(key.slice(11))));
    // -1 would be a key without expiry; -2 one that expired since the scan listed it (a spent echo
    // budget of an earlier test lives about a second).
    for (const k of keys) {
      const ttl = Number(await redis.command('PTTL', k));
      assert.ok(ttl > 0 || ttl === -2, `${k}: PTTL ${ttl}`);
    }
  } finally {
    await stopServers(server);
  }
});

async function fallbacks(server: ChildServer): Promise<number> {
  return sampleValue(parsePromText((await request(server.base, '/metrics')).text), 'nettools_rate_limit_store_fallbacks_total');
}

test('Redis gone: no 500, still limited from local buckets, counted and shown; back again: shared', async ({ redis }) => {
  const server = await spawnServer({ NETTOOLS_REDIS_URL: redis.url, NETTOOLS_RATE_LIMIT: '3/60s' });
  try {
    assert.equal((await request(server.base, '/health')).json(), { status: 'ok', store: { kind: 'redis', state: 'shared' } });
    await redis.stop();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await bad(server, '127.0.0.51')).status);
    assert.equal(statuses, [400, 400, 400, 429, 429, 429]);
    assert.equal((await request(server.base, '/health')).json().store.state, 'local-fallback');
    assert.ok((await fallbacks(server)) >= 6);
    await redis.start();
    // Only a request tries Redis again (once a second while it is down), after the client reconnects.
    const sharedAgain = async () => {
      await bad(server, '127.0.0.52');
      return (await request(server.base, '/health')).json().store.state === 'shared';
    };
    await waitFor('a request shared through Redis again', sharedAgain, { everyMs: 200 });
    await bad(server, '127.0.0.52');
    assert.equal((await request(server.base, '/health')).json().store.state, 'shared');
    assert.ok((await redis.command('--scan', '--pattern', 'nettools:b:*')).includes('127.0.0.52'));
  } finally {
    await stopServers(server);
  }
});

test('closed mode: Redis gone is 503 with Retry-After; back again, served; the server starts while Redis is down', async ({ redis }) => {
  await redis.stop();
  const server = await spawnServer({ NETTOOLS_REDIS_URL: redis.url, NETTOOLS_REDIS_FAILURE: 'closed' });
  try {
    const refused = await bad(server, '127.0.0.61');
    assertProblem(refused, 503, 'rate-limit-store-unavailable');
    assert.is(refused.headers['retry-after'], '1');
    assert.equal((await request(server.base, '/health')).json().store.state, 'unavailable');
    await redis.start();
    await waitFor('a request admitted through Redis again', async () => (await bad(server, '127.0.0.61')).status === 400, { everyMs: 200 });
    assert.is((await bad(server, '127.0.0.61')).status, 400);
  } finally {
    await stopServers(server);
    if (!(await redis.command('PING').catch(() => ''))) await redis.start();
  }
});

test.run();
