import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startSilentDns } from '../support/fault-dns';
import { postJson, request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { parsePromText, sampleValue, type Sample } from '../support/prom-text';
import { startServer, type RunningServer } from '../support/server';
import { waitFor } from '../support/wait';

type Silent = Awaited<ReturnType<typeof startSilentDns>>;
const test = suite<{ knot: KnotServer; silent: Silent; server: RunningServer }>('tool metrics');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'm.test', records: ['@ A 192.0.2.1'] }], '127.0.0.13');
  ctx.silent = await startSilentDns();
  ctx.server = await startServer({
    NETTOOLS_RESOLVERS: `knot=127.0.0.13:${ctx.knot.port},mute=${ctx.silent.address}:${ctx.silent.port}`,
    NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true',
  });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.silent?.stop();
  await ctx.knot?.stop();
});

async function scrape(base: string): Promise<Sample[]> {
  return parsePromText((await request(base, '/metrics')).text);
}

test('ping outcomes move by exactly the echoes sent and answered', async ({ server }) => {
  const before = await scrape(server.base);
  await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 2, intervalMs: 100 });
  await postJson(server.base, '/api/tools/ping', { host: 'nothing.m.test', count: 1 });
  const after = await scrape(server.base);
  const delta = (name: string, labels: Record<string, string>) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
  assert.is(delta('nettools_ping_requests_total', { outcome: 'ok' }), 1);
  assert.is(delta('nettools_ping_requests_total', { outcome: 'host-not-found' }), 1);
  assert.is(delta('nettools_ping_echoes_total', { result: 'reply' }), 2);
  assert.is(delta('nettools_ping_echoes_total', { result: 'timeout' }), 0);
  assert.ok(after.some((s) => s.name === 'nettools_ping_stray_packets_total' && s.labels['family'] === '4'));
});

test('dns outcomes by resolver and rcode, with the resolver RTT histogram and engine events', async ({ server }) => {
  const before = await scrape(server.base);
  await postJson(server.base, '/api/tools/dns', { domain: 'm.test', types: ['A', 'MX'], timeoutMs: 200 });
  const after = await scrape(server.base);
  const delta = (name: string, labels: Record<string, string>) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
  assert.is(delta('nettools_dns_requests_total', { outcome: 'ok' }), 1);
  assert.is(delta('nettools_dns_queries_total', { resolver: 'knot', rcode: 'NOERROR' }), 2);
  assert.is(delta('nettools_dns_queries_total', { resolver: 'mute', rcode: 'timeout' }), 2);
  assert.is(delta('nettools_dns_resolver_rtt_seconds_count', { resolver: 'knot' }), 2);
  assert.is(delta('nettools_dns_resolver_rtt_seconds_count', { resolver: 'mute' }), 0);
  assert.is(delta('nettools_dns_engine_events_total', { event: 'timeouts' }), 2);
  assert.is(delta('nettools_dns_engine_events_total', { event: 'answered' }), 2);
});

test('dns counts each type by outcome, and a request no resolver answered as upstream-failed with its queries', async ({ server }) => {
  const before = await scrape(server.base);
  await postJson(server.base, '/api/tools/dns', { domain: 'm.test', types: ['A', 'MX'], resolvers: ['knot'] });
  await postJson(server.base, '/api/tools/dns', { domain: 'gone.m.test', types: ['A'], resolvers: ['knot'] });
  // Knot refuses a name outside its zones.
  await postJson(server.base, '/api/tools/dns', { domain: 'x.elsewhere.test', types: ['A'], resolvers: ['knot'] });
  const after = await scrape(server.base);
  const delta = (name: string, labels: Record<string, string>) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
  assert.is(delta('nettools_dns_type_outcomes_total', { type: 'A', outcome: 'records' }), 1);
  assert.is(delta('nettools_dns_type_outcomes_total', { type: 'MX', outcome: 'no-data' }), 1);
  assert.is(delta('nettools_dns_type_outcomes_total', { type: 'A', outcome: 'nxdomain' }), 1);
  assert.is(delta('nettools_dns_requests_total', { outcome: 'upstream-failed' }), 1);
  assert.is(delta('nettools_dns_queries_total', { resolver: 'knot', rcode: 'REFUSED' }), 1);
});

test('a client that goes away mid-ping is counted as aborted, not as an internal error', async ({ server }) => {
  const before = await scrape(server.base);
  const http = await import('node:http');
  const req = http.request(`${server.base}/api/tools/ping`, { method: 'POST', headers: { 'content-type': 'application/json' }, agent: false });
  req.on('error', () => {});
  req.end(JSON.stringify({ host: '127.0.0.1', count: 5, intervalMs: 200 }));
  await waitFor('the ping in flight', () => server.app.inFlight() !== 0, { everyMs: 5 });
  req.destroy();
  // The measurement ends a moment after the exchange does: wait for its outcome to be counted.
  let after = await scrape(server.base);
  const delta = (labels: Record<string, string>) => sampleValue(after, 'nettools_ping_requests_total', labels) - sampleValue(before, 'nettools_ping_requests_total', labels);
  await waitFor('the aborted ping counted', async () => {
    after = await scrape(server.base);
    return delta({ outcome: 'aborted' }) !== 0;
  }, { everyMs: 20 });
  assert.is(delta({ outcome: 'aborted' }), 1);
  assert.is(delta({ outcome: 'internal-error' }), 0);
});

test.run();
