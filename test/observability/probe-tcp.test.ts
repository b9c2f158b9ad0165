import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { assertProblem } from '../support/problem';
import { parsePromText, sampleValue, type Sample } from '../support/prom-text';
import { freeTcpPort } from '../support/ports';
import { startServer, type RunningServer } from '../support/server';
import { listenTcp, type TcpListener } from '../support/tcp-listener';

// GET /probe?module=tcp against a real loopback listener, names from a real Knot.
const test = suite<{ knot: KnotServer; open: RunningServer; v4: TcpListener; v6: TcpListener }>('GET /probe?module=tcp');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'probe-tcp.test', records: ['loop A 127.0.0.1'] }], '127.0.0.72');
  ctx.open = await startServer({ NETTOOLS_RESOLVERS: `knot=127.0.0.72:${ctx.knot.port}`, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s' });
  ctx.v4 = await listenTcp('127.0.0.1');
  ctx.v6 = await listenTcp('::1');
});

test.after(async (ctx) => {
  await ctx.open?.stop();
  await ctx.v4?.stop();
  await ctx.v6?.stop();
  await ctx.knot?.stop();
});

async function probe(base: string, query: string): Promise<Sample[]> {
  const reply = await request(base, `/probe?${query}`);
  assert.is(reply.status, 200, reply.text);
  return parsePromText(reply.text);
}

test('a listening port is probe_success 1 with blackbox_exporter names', async ({ open, v4 }) => {
  const samples = await probe(open.base, `module=tcp&target=127.0.0.1:${v4.port}`);
  assert.is(sampleValue(samples, 'probe_success'), 1);
  assert.is(sampleValue(samples, 'probe_ip_protocol'), 4);
  assert.is(sampleValue(samples, 'nettools_probe_tcp_attempts_sent'), 1);
  assert.is(sampleValue(samples, 'nettools_probe_tcp_attempts_connected'), 1);
  assert.ok(sampleValue(samples, 'nettools_probe_tcp_duration_seconds', { phase: 'connect' }) > 0);
});

test('an IPv6 target is [address]:port, a name resolves, and ip_protocol applies', async ({ open, v4, v6 }) => {
  assert.is(sampleValue(await probe(open.base, `module=tcp&target=[::1]:${v6.port}`), 'probe_ip_protocol'), 6);
  const named = await probe(open.base, `module=tcp&target=loop.probe-tcp.test:${v4.port}&ip_protocol=ip4`);
  assert.is(sampleValue(named, 'probe_success'), 1);
});

test('a closed port is probe_success 0', async ({ open }) => {
  const port = await freeTcpPort('127.0.0.1');
  const samples = await probe(open.base, `module=tcp&target=127.0.0.1:${port}&count=2`);
  assert.is(sampleValue(samples, 'probe_success'), 0);
  assert.is(sampleValue(samples, 'nettools_probe_tcp_attempts_sent'), 2);
});

test('a target without a port, and a refused port, answer problems', async ({ open }) => {
  const bare = assertProblem(await request(open.base, '/probe?module=tcp&target=127.0.0.1'), 400, 'validation-failed');
  assert.equal(bare.errors.map((e: { pointer: string }) => e.pointer), ['/target']);
  assert.is(assertProblem(await request(open.base, '/probe?module=tcp&target=127.0.0.1:22'), 422, 'target-forbidden').range, 'port');
});

test('ip_protocol still applies to icmp, and a dns parameter not to tcp', async ({ open, v4 }) => {
  const wrong = assertProblem(await request(open.base, `/probe?module=tcp&target=127.0.0.1:${v4.port}&type=MX`), 400, 'validation-failed');
  assert.match(wrong.errors[0].message, 'module=dns');
  const icmp = await probe(open.base, 'module=icmp&target=127.0.0.1&ip_protocol=ip4');
  assert.is(sampleValue(icmp, 'probe_success'), 1);
});

test.run();
