import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import { postJson, request, type Reply } from '../support/http';
import { parsePromText, sampleValue } from '../support/prom-text';
import { answerA, startScriptedDns, type ScriptedDns } from '../support/scripted-dns';
import { startServer, type RunningServer } from '../support/server';
import { waitFor } from '../support/wait';

// A resolver that answers every query after DELAY_MS, counting what it receives.
const DELAY_MS = 300;
const test = suite<{ dns: ScriptedDns; server: RunningServer }>('coalesced questions');

test.before(async (ctx) => {
  ctx.dns = await startScriptedDns((q, dns) => void setTimeout(() => void dns.send(answerA(q, '192.0.2.7'), q), DELAY_MS));
  ctx.server = await startServer({
    NETTOOLS_RESOLVERS: `slow=${ctx.dns.address}:${ctx.dns.port}`,
    NETTOOLS_RATE_LIMIT: '1000/1s',
    NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '100',
  });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.dns?.stop();
});

const ask = (server: RunningServer, domain: string) => postJson(server.base, '/api/tools/dns', { domain, types: ['A'] });

function addresses(reply: Reply): string[] {
  return reply.json().records.A.map((a: { address: string }) => a.address);
}

test('30 identical requests at once: one query upstream, and all 30 get its answer', async ({ dns, server }) => {
  const before = dns.seen.length;
  const replies = await Promise.all(Array.from({ length: 30 }, () => ask(server, 'same.example.test')));
  assert.is(dns.seen.length - before, 1);
  for (const r of replies) assert.equal([r.status, addresses(r)], [200, ['192.0.2.7']]);
});

test('30 identical requests for several types at once: exactly one query upstream per type', async ({ dns, server }) => {
  const before = dns.seen.length;
  const replies = await Promise.all(Array.from({ length: 30 }, () => postJson(server.base, '/api/tools/dns', { domain: 'types.example.test', types: ['A', 'AAAA', 'MX', 'TXT'] })));
  const types = dns.seen.slice(before).map((q) => q.type).sort((a, b) => a - b);
  assert.equal(types, [1, 15, 16, 28]); // A, MX, TXT, AAAA
  for (const r of replies) assert.equal([r.status, addresses(r)], [200, ['192.0.2.7']]);
});

test('30 identical requests for eight of the newer types at once: exactly one query upstream per type', async ({ dns, server }) => {
  const before = dns.seen.length;
  const types = ['SOA', 'NS', 'CAA', 'SRV', 'NAPTR', 'DNSKEY', 'TLSA', 'HTTPS'];
  const replies = await Promise.all(Array.from({ length: 30 }, () => postJson(server.base, '/api/tools/dns', { domain: 'newtypes.example.test', types })));
  const seen = dns.seen.slice(before).map((q) => q.type).sort((a, b) => a - b);
  assert.equal(seen, [2, 6, 33, 35, 48, 52, 65, 257]);
  for (const r of replies) assert.is(r.status, 200);
});

test('the same name asked for SVCB and for HTTPS is two questions, not one', async ({ dns, server }) => {
  const before = dns.seen.length;
  await Promise.all([postJson(server.base, '/api/tools/dns', { domain: 'svc.example.test', types: ['SVCB'] }), postJson(server.base, '/api/tools/dns', { domain: 'svc.example.test', types: ['HTTPS'] })]);
  assert.equal(dns.seen.slice(before).map((q) => q.type).sort((a, b) => a - b), [64, 65]);
});

test('identical questions asked with different timeouts share one query', async ({ dns, server }) => {
  const before = dns.seen.length;
  const replies = await Promise.all([1000, 2000, 3000, 4000].map((timeoutMs) => postJson(server.base, '/api/tools/dns', { domain: 'timeouts.example.test', types: ['A'], timeoutMs })));
  assert.is(dns.seen.length - before, 1);
  for (const r of replies) assert.equal([r.status, addresses(r)], [200, ['192.0.2.7']]);
});

test('20 distinct names at once: 20 queries', async ({ dns, server }) => {
  const before = dns.seen.length;
  const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => ask(server, `n${i}.example.test`)));
  assert.is(dns.seen.length - before, 20);
  assert.ok(replies.every((r) => r.status === 200));
});

test('nothing is kept after the answer: the same question later goes upstream again', async ({ dns, server }) => {
  await ask(server, 'again.example.test');
  const before = dns.seen.length;
  assert.is((await ask(server, 'again.example.test')).status, 200);
  assert.is(dns.seen.length - before, 1);
});

test('a waiting request that goes away leaves the shared query running for the others', async ({ dns, server }) => {
  const before = dns.seen.length;
  const leaving = http.request(`${server.base}/api/tools/dns`, { method: 'POST', headers: { 'content-type': 'application/json' }, agent: false });
  leaving.on('error', () => {});
  leaving.end(JSON.stringify({ domain: 'shared.example.test', types: ['A'] }));
  await waitFor('the query of the leaving request upstream', () => dns.seen.length - before === 1);
  const staying = Promise.all([ask(server, 'shared.example.test'), ask(server, 'shared.example.test')]);
  await waitFor('all three requests admitted', async () => sampleValue(parsePromText((await request(server.base, '/metrics')).text), 'nettools_admitted_in_flight') >= 3);
  leaving.destroy();
  const replies = await staying;
  assert.is(dns.seen.length - before, 1);
  for (const r of replies) assert.equal([r.status, addresses(r)], [200, ['192.0.2.7']]);
});

test.run();
