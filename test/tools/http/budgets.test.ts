import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, stopServers, type ChildServer } from '../../support/child-server';
import { postJson } from '../../support/http';
import { startRedis, type RedisServer } from '../../support/redis';

// The per address-and-port connection budget (NETTOOLS_TARGET_CONNECTIONS_PER_MINUTE, 4 here) that the
// tcp and tls checks spend: every http exchange, redirects included, spends one; across two worker
// threads, and across two instances on one Redis.
interface Ctx {
  redis: RedisServer;
  workers: ChildServer;
  a: ChildServer;
  b: ChildServer;
  sites: Server[];
}

const test = suite<Ctx>('http check: connection budgets');

// An HTTP server on its own port of 127.0.0.1 (its own budget): 200, or a redirect to itself for /loop.
async function site(ctx: Ctx): Promise<number> {
  const server = createServer((req, res) => {
    if (req.url === '/loop') res.writeHead(302, { location: '/loop' });
    res.end();
  });
  ctx.sites.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

test.before(async (ctx) => {
  ctx.sites = [];
  ctx.redis = await startRedis();
  const env = { NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_CONNECTIONS_PER_MINUTE: '4', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '100' };
  ctx.workers = await spawnServer({ ...env, NETTOOLS_WORKERS: '2' });
  [ctx.a, ctx.b] = await Promise.all([spawnServer({ ...env, NETTOOLS_REDIS_URL: ctx.redis.url }), spawnServer({ ...env, NETTOOLS_REDIS_URL: ctx.redis.url })]);
});

test.after(async (ctx) => {
  await stopServers(...[ctx.workers, ctx.a, ctx.b].filter((s) => s !== undefined));
  for (const server of ctx.sites ?? []) server.close();
  await ctx.redis?.stop();
});

const http = (server: ChildServer, url: string, extra: Record<string, unknown> = {}) => postJson(server.base, '/api/tools/http', { url, ...extra });

test('eight checks of one port at once over two workers: exactly four are made, four are 429', async (ctx) => {
  const port = await site(ctx);
  const replies = await Promise.all(Array.from({ length: 8 }, () => http(ctx.workers, `http://127.0.0.1:${port}/`)));
  assert.equal(replies.map((r) => r.status).sort(), [200, 200, 200, 200, 429, 429, 429, 429]);
});

test('each redirect followed spends one more connection: three redirects and the first exchange spend all four', async (ctx) => {
  const port = await site(ctx);
  const looped = await http(ctx.workers, `http://127.0.0.1:${port}/loop`, { followRedirects: 3 });
  assert.is(looped.json().redirects.length, 3);
  const after = await http(ctx.workers, `http://127.0.0.1:${port}/`);
  assert.is(after.status, 429, after.text);
  assert.is(after.json().code, 'target-rate-limited');
});

test('two instances on one Redis make to one port what the budget allows between them, and share it with tcp', async (ctx) => {
  const port = await site(ctx);
  const replies = [];
  for (let i = 0; i < 6; i++) replies.push(await http(i % 2 === 0 ? ctx.a : ctx.b, `http://127.0.0.1:${port}/`));
  assert.equal(replies.map((r) => r.status), [200, 200, 200, 200, 429, 429], replies.map((r) => r.text).join('\n'));
  const tcp = await postJson(ctx.a.base, '/api/tools/tcp', { host: '127.0.0.1', port, count: 1 });
  assert.is(tcp.status, 429, tcp.text);
});

test.run();
