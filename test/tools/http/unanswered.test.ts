import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../../support/contract';
import { postJson } from '../../support/http';
import { netnsTracker } from '../../support/netns';
import { startServer, type RunningServer } from '../../support/server';

// Exchanges that get no whole answer: a slow first byte, a server that never answers, a namespace that
// drops SYNs, and one whose host answers SYNs with an ICMP host unreachable.
const test = suite<{ server: RunningServer; slow: Server; slowPort: number }>('http check: slow and unanswered');
const spaces = netnsTracker();
const DELAY_MS = 300;

test.before(async (ctx) => {
  // The head after DELAY_MS, or never for /never.
  ctx.slow = createServer((req, res) => {
    if (req.url === '/never') return;
    setTimeout(() => res.end('late\n'), DELAY_MS);
  });
  await new Promise<void>((r) => ctx.slow.listen(0, '127.0.0.1', r));
  ctx.slowPort = (ctx.slow.address() as AddressInfo).port;
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  ctx.slow?.closeAllConnections();
  await new Promise((r) => ctx.slow?.close(r));
  spaces.dropAll();
});

const http = (server: RunningServer, body: unknown) => postJson(server.base, '/api/tools/http', body);

test('a slow first byte is counted in firstByteMs, from the request sent to the answer', async ({ server, slowPort }) => {
  const body = (await http(server, { url: `http://127.0.0.1:${slowPort}/` })).json();
  assertMatchesSchema('HttpResult', body);
  assert.is(body.status, 200);
  assert.ok(body.timings.firstByteMs >= DELAY_MS, String(body.timings.firstByteMs));
  assert.ok(body.timings.connectMs < body.timings.firstByteMs);
});

test('an answer that never comes within timeoutMs is a 200 with response timeout, connected', async ({ server, slowPort }) => {
  const body = (await http(server, { url: `http://127.0.0.1:${slowPort}/never`, timeoutMs: 200 })).json();
  assertMatchesSchema('HttpResult', body);
  assert.equal([body.response, body.status], ['timeout', undefined]);
  assert.ok(body.timings.connectMs > 0);
});

test('a host whose SYNs are dropped is a 200 with connect timeout', async ({ server }) => {
  const ns = spaces.netns();
  ns.exec(['iptables', '-A', 'INPUT', '-p', 'tcp', '--dport', '8080', '--syn', '-j', 'DROP']);
  const body = (await http(server, { url: `http://${ns.nsV4}:8080/`, timeoutMs: 300 })).json();
  assertMatchesSchema('HttpResult', body);
  assert.equal([body.connect, body.address], ['timeout', ns.nsV4]);
  assert.is(body.timings.connectMs, undefined);
  spaces.drop(ns);
});

test('a host that answers with ICMP host unreachable is a 200 with connect unreachable, EHOSTUNREACH', async ({ server }) => {
  const ns = spaces.netns();
  ns.exec(['iptables', '-A', 'INPUT', '-p', 'tcp', '--dport', '8080', '-j', 'REJECT', '--reject-with', 'icmp-host-unreachable']);
  const body = (await http(server, { url: `http://${ns.nsV4}:8080/`, timeoutMs: 5000 })).json();
  assertMatchesSchema('HttpResult', body);
  assert.equal([body.connect, body.code], ['unreachable', 'EHOSTUNREACH']);
  spaces.drop(ns);
});

test.run();
