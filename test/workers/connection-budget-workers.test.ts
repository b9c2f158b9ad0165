import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, stopServers, type ChildServer } from '../support/child-server';
import { postJson } from '../support/http';

// The per address-and-port connection budget of tcp and tls checks across two worker threads: the
// requests fall on either worker, and together they open what the budget allows.
const test = suite<{ server: ChildServer; listener: net.Server; port: number }>('the connection budget across two worker threads');

test.before(async (ctx) => {
  ctx.listener = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => ctx.listener.listen(0, '127.0.0.1', resolve));
  ctx.port = (ctx.listener.address() as net.AddressInfo).port;
  ctx.server = await spawnServer({ NETTOOLS_WORKERS: '2', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_CONNECTIONS_PER_MINUTE: '4', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '100' });
});

test.after(async (ctx) => {
  if (ctx.server) await stopServers(ctx.server);
  ctx.listener?.close();
});

test('eight checks of one port at once over both workers: exactly four connect, four are 429', async ({ server, port }) => {
  const replies = await Promise.all(Array.from({ length: 8 }, () => postJson(server.base, '/api/tools/tcp', { host: '127.0.0.1', port, count: 1 })));
  const statuses = replies.map((r) => r.status).sort();
  assert.equal(statuses, [200, 200, 200, 200, 429, 429, 429, 429]);
});

test.run();
