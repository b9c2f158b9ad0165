import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, stopServers, type ChildServer } from '../support/child-server';
import { postJson } from '../support/http';
import { startRedis, type RedisServer } from '../support/redis';

// tcp and tls checks spend one budget per address and port (NETTOOLS_TARGET_CONNECTIONS_PER_MINUTE); with
// Redis, every instance spends the same one: together they open to a port what one instance would.
interface Ctx {
  redis: RedisServer;
  listener: net.Server;
  port: number;
  a: ChildServer;
  b: ChildServer;
}

const test = suite<Ctx>('connection budgets shared in Redis');

test.before(async (ctx) => {
  ctx.redis = await startRedis();
  ctx.listener = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => ctx.listener.listen(0, '127.0.0.1', resolve));
  ctx.port = (ctx.listener.address() as net.AddressInfo).port;
  const env = { NETTOOLS_REDIS_URL: ctx.redis.url, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_CONNECTIONS_PER_MINUTE: '4', NETTOOLS_RATE_LIMIT: '100/60s' };
  [ctx.a, ctx.b] = await Promise.all([spawnServer(env), spawnServer(env)]);
});

test.after(async (ctx) => {
  await stopServers(...[ctx.a, ctx.b].filter((s) => s !== undefined));
  ctx.listener?.close();
  await ctx.redis?.stop();
});

test('two instances on one Redis open to one address and port what the budget allows between them', async (ctx) => {
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const server = i % 2 === 0 ? ctx.a : ctx.b;
    statuses.push((await postJson(server.base, '/api/tools/tcp', { host: '127.0.0.1', port: ctx.port, count: 1 })).status);
  }
  assert.equal(statuses, [200, 200, 200, 200, 429, 429]);
  const refused = await postJson(ctx.a.base, '/api/tools/tcp', { host: '127.0.0.1', port: ctx.port, count: 1 });
  assert.is(refused.json().code, 'target-rate-limited');
  // A tls check of the same port spends the same budget, at either instance.
  const tls = await postJson(ctx.b.base, '/api/tools/tls', { host: '127.0.0.1', port: ctx.port, timeoutMs: 1000 });
  assert.is(tls.status, 429, tls.text);
});

test.run();
