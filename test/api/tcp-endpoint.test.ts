import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { postJson, request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { assertProblem } from '../support/problem';
import { parsePromText, sampleValue } from '../support/prom-text';
import { freeTcpPort } from '../support/ports';
import { startServer, type RunningServer } from '../support/server';
import { listenTcp, type TcpListener } from '../support/tcp-listener';
import { waitFor } from '../support/wait';

// POST /api/tools/tcp against real loopback listeners and closed ports, names from a real Knot.
const test = suite<{ knot: KnotServer; open: RunningServer; guarded: RunningServer; tight: RunningServer; v4: TcpListener; v6: TcpListener }>('POST /api/tools/tcp');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'tcp.test', records: ['loop A 127.0.0.1', 'loop6 AAAA ::1'] }], '127.0.0.71');
  const resolvers = `knot=127.0.0.71:${ctx.knot.port}`;
  const common = { NETTOOLS_RESOLVERS: resolvers, NETTOOLS_RATE_LIMIT: '1000/1s' };
  ctx.open = await startServer({ ...common, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_CHECK_PORTS: '853' });
  ctx.guarded = await startServer(common);
  ctx.tight = await startServer({ ...common, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_CONNECTIONS_PER_MINUTE: '3' });
  ctx.v4 = await listenTcp('127.0.0.1');
  ctx.v6 = await listenTcp('::1');
});

test.after(async (ctx) => {
  await ctx.open?.stop();
  await ctx.guarded?.stop();
  await ctx.tight?.stop();
  await ctx.v4?.stop();
  await ctx.v6?.stop();
  await ctx.knot?.stop();
});

const tcp = (server: RunningServer, body: unknown) => postJson(server.base, '/api/tools/tcp', body);

test('connecting to a listener on 127.0.0.1 answers the contract shape, and sends it no byte', async ({ open, v4 }) => {
  const before = v4.accepted();
  const reply = await tcp(open, { host: '127.0.0.1', port: v4.port, count: 3, intervalMs: 200 });
  assert.is(reply.status, 200, reply.text);
  const body = reply.json();
  assertMatchesSchema('TcpResult', body);
  assert.is(body.connected, true);
  assert.is(body.port, v4.port);
  assert.equal(body.attempts, { sent: 3, connected: 3, lossPercent: 0 });
  assert.equal(body.results.map((r: any) => [r.seq, r.status]), [[0, 'connected'], [1, 'connected'], [2, 'connected']]);
  assert.ok(body.results.every((r: any) => r.connectMs > 0));
  assert.ok(body.connectMs.min <= body.connectMs.avg && body.connectMs.avg <= body.connectMs.max);
  // A handshake can end inside connect(), and the answer come before this process's listener accepts.
  await waitFor('the listener to accept the three connections', () => v4.accepted() - before === 3);
  await v4.closedByPeer();
  assert.is(v4.accepted() - before, 3);
  assert.is(v4.bytesReceived(), 0);
});

test('a name resolves through the configured resolvers, and ipVersion 6 picks its AAAA', async ({ open, v6 }) => {
  const body = (await tcp(open, { host: 'loop6.tcp.test', port: v6.port, count: 1, ipVersion: 6 })).json();
  assertMatchesSchema('TcpResult', body);
  assert.is(body.host, 'loop6.tcp.test');
  assert.is(body.address, '::1');
  assert.is(body.ipVersion, 6);
  assert.is(body.results[0].status, 'connected');
});

test('a closed port is a 200 whose attempts are refused', async ({ open }) => {
  const port = await freeTcpPort('127.0.0.1');
  const body = (await tcp(open, { host: 'loop.tcp.test', port, count: 2, intervalMs: 200 })).json();
  assertMatchesSchema('TcpResult', body);
  assert.is(body.connected, false);
  assert.is(body.connectMs, null);
  assert.equal(body.attempts, { sent: 2, connected: 0, lossPercent: 100 });
  assert.equal(body.results, [
    { seq: 0, status: 'refused', errno: 'ECONNREFUSED' },
    { seq: 1, status: 'refused', errno: 'ECONNREFUSED' },
  ]);
});

test('port 22 is refused with 422 target-forbidden, range port', async ({ open }) => {
  const problem = assertProblem(await tcp(open, { host: '127.0.0.1', port: 22, count: 1 }), 422, 'target-forbidden');
  assert.is(problem.range, 'port');
  assert.match(problem.detail, 'port 22');
});

test('ports 80 and 443 are always allowed', async ({ open }) => {
  for (const port of [80, 443]) {
    const reply = await tcp(open, { host: '127.0.0.1', port, count: 1, timeoutMs: 500 });
    assert.is(reply.status, 200, `${port}: ${reply.text}`);
  }
});

test('a port below 1024 listed in NETTOOLS_CHECK_PORTS is allowed, and refused where it is not listed', async ({ open, guarded }) => {
  assert.is((await tcp(open, { host: '127.0.0.1', port: 853, count: 1, timeoutMs: 500 })).status, 200);
  assert.is(assertProblem(await tcp(guarded, { host: '192.0.2.1', port: 853 }), 422, 'target-forbidden').range, 'port');
});

test('loopback is refused by default with 422 target-forbidden', async ({ guarded, v4 }) => {
  const problem = assertProblem(await tcp(guarded, { host: '127.0.0.1', port: v4.port }), 422, 'target-forbidden');
  assert.is(problem.range, 'loopback');
});

test('a name resolving to a refused address is refused after resolution', async ({ guarded, v4 }) => {
  const problem = assertProblem(await tcp(guarded, { host: 'loop.tcp.test', port: v4.port }), 422, 'target-forbidden');
  assert.is(problem.range, 'loopback');
  assert.match(problem.detail, '127.0.0.1');
});

test('the connection budget of one address and port is spent per attempt; another port has its own', async ({ tight }) => {
  const a = await listenTcp('127.0.0.1');
  const b = await listenTcp('127.0.0.1');
  try {
    assert.is((await tcp(tight, { host: '127.0.0.1', port: a.port, count: 2, intervalMs: 200 })).status, 200);
    const spent = assertProblem(await tcp(tight, { host: '127.0.0.1', port: a.port, count: 2, intervalMs: 200 }), 429, 'target-rate-limited');
    assert.match(spent.detail, `127.0.0.1 port ${a.port}`);
    assert.is((await tcp(tight, { host: '127.0.0.1', port: b.port, count: 3, intervalMs: 200 })).status, 200);
  } finally {
    await a.stop();
    await b.stop();
  }
});

test('more attempts than the budget allows in a minute is a 400 on count', async ({ tight, v4 }) => {
  const problem = assertProblem(await tcp(tight, { host: '127.0.0.1', port: v4.port, count: 4, intervalMs: 200 }), 400, 'validation-failed');
  assert.equal(problem.errors.map((e: { pointer: string }) => e.pointer), ['/count']);
});

test('bad input is a 400 naming each field', async ({ open }) => {
  const cases: Array<[unknown, string]> = [
    [{ host: '127.0.0.1' }, '/port'],
    [{ host: '127.0.0.1', port: 0 }, '/port'],
    [{ host: '127.0.0.1', port: 65536 }, '/port'],
    [{ host: '127.0.0.1', port: 443, count: 11 }, '/count'],
    [{ host: '127.0.0.1', port: 443, intervalMs: 100 }, '/intervalMs'],
    [{ host: '127.0.0.1', port: 443, timeoutMs: 10_001 }, '/timeoutMs'],
    [{ host: '127.0.0.1', port: 443, ipVersion: 5 }, '/ipVersion'],
    [{ host: 'a b', port: 443 }, '/host'],
    [{ host: '127.0.0.1', port: 443, payload: 'x' }, '/payload'],
  ];
  for (const [body, pointer] of cases) {
    const problem = assertProblem(await tcp(open, body), 400, 'validation-failed');
    assert.ok(problem.errors.some((e: { pointer: string }) => e.pointer === pointer), `${JSON.stringify(body)}: ${JSON.stringify(problem.errors)}`);
  }
});

test('requests and attempts are counted in /metrics', async ({ open, v4 }) => {
  await tcp(open, { host: '127.0.0.1', port: v4.port, count: 1 });
  const metrics = parsePromText((await request(open.base, '/metrics')).text);
  assert.ok(sampleValue(metrics, 'nettools_tcp_requests_total', { outcome: 'ok' })! >= 1);
  assert.ok(sampleValue(metrics, 'nettools_tcp_attempts_total', { result: 'connected' })! >= 1);
  assert.ok(sampleValue(metrics, 'nettools_tcp_requests_total', { outcome: 'target-forbidden' })! >= 1);
});

test.run();
