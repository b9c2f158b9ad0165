import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ResolverBudget, type ResolverReservation } from '../../src/ratelimit/resolver-budget';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';
import { Upstream } from '../../src/tools/upstream';
import { startSilentDns } from '../support/fault-dns';
import { postJson } from '../support/http';
import { assertProblem } from '../support/problem';
import { answerA, startScriptedDns, type ScriptedDns } from '../support/scripted-dns';
import { startServer, type RunningServer } from '../support/server';
import { openResolverClient } from '../../src/engines/dns';
import { sendsOf } from '../../src/engines/dns/types';
import { coalesce } from '../../src/engines/dns/coalescing-client';
import { PausedClockStore } from '../support/paused-clock-store';
import { answerNow } from '../support/answer';

// The resolver budget's buckets stand still unless a test moves their clock: 10 a second is exactly 10.
const test = suite<{ dns: ScriptedDns; server: RunningServer; budgets: PausedClockStore }>('per-resolver query budget');

test.before(async (ctx) => {
  ctx.dns = await startScriptedDns((q, dns) => void dns.send(answerA(q, '192.0.2.8'), q));
  ctx.budgets = new PausedClockStore();
  ctx.server = await startServer(
    {
      NETTOOLS_RESOLVERS: `r=${ctx.dns.address}:${ctx.dns.port}`,
      NETTOOLS_RESOLVER_QPS: '10',
      NETTOOLS_RATE_LIMIT: '1000/1s',
      NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '100',
    },
    undefined,
    { resolverStore: ctx.budgets },
  );
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.dns?.stop();
});

test('a burst of 40 distinct requests: the resolver sees 10, the rest are 503 upstream-busy with Retry-After; a second later they are served', async ({ dns, server, budgets }) => {
  const before = dns.seen.length;
  const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => postJson(server.base, '/api/tools/dns', { domain: `b${i}.example.test`, types: ['A'] })));
  const ok = replies.filter((r) => r.status === 200);
  const busy = replies.filter((r) => r.status === 503);
  assert.is(dns.seen.length - before, 10);
  assert.equal([ok.length, busy.length], [10, 30]);
  for (const r of busy) {
    assertProblem(r, 503, 'upstream-busy');
    assert.is(r.headers['retry-after'], '1');
  }
  budgets.advance(1000);
  assert.is((await postJson(server.base, '/api/tools/dns', { domain: 'later.example.test', types: ['A'] })).status, 200);
});

test('a request for eight of the newer types is charged eight queries, and refused whole when they do not fit', async ({ dns, server, budgets }) => {
  budgets.advance(1000);
  const before = dns.seen.length;
  const types = ['SOA', 'NS', 'CAA', 'SRV', 'NAPTR', 'DS', 'TLSA', 'SVCB'];
  assert.is((await postJson(server.base, '/api/tools/dns', { domain: 'eight.example.test', types })).status, 200);
  assert.is(dns.seen.length - before, 8);
  assertProblem(await postJson(server.base, '/api/tools/dns', { domain: 'nine.example.test', types: ['CNAME', 'PTR', 'DNSKEY'] }), 503, 'upstream-busy');
  assert.is(dns.seen.length - before, 8);
});

test("a request is refused whole: a type that would not fit sends nothing at all", async ({ dns, server, budgets }) => {
  budgets.advance(1000);
  const before = dns.seen.length;
  for (let i = 0; i < 8; i++) await postJson(server.base, '/api/tools/dns', { domain: `w${i}.example.test`, types: ['A'] });
  assert.is(dns.seen.length - before, 8);
  assertProblem(await postJson(server.base, '/api/tools/dns', { domain: 'whole.example.test', types: ['A', 'AAAA', 'MX'] }), 503, 'upstream-busy');
  assert.is(dns.seen.length - before, 8);
});

test("ping's host-name resolution spends the same budget, and is refused the same way", async ({ dns, server, budgets }) => {
  budgets.advance(1000);
  for (let i = 0; i < 10; i++) await postJson(server.base, '/api/tools/dns', { domain: `p${i}.example.test`, types: ['A'] });
  const before = dns.seen.length;
  // Private targets are refused on this server: even a name that did resolve would be pinged nowhere.
  const reply = await postJson(server.base, '/api/tools/ping', { host: 'host.example.test', count: 1 });
  assertProblem(reply, 503, 'upstream-busy');
  assert.ok(reply.headers['retry-after']);
  assert.is(dns.seen.length - before, 0);
});

test('resends are charged: a query that timed out cost its resolver two tokens', async () => {
  const silent = await startSilentDns();
  const resolver = { id: 'silent', address: silent.address, port: silent.port, family: 4 as const };
  // A clock that stands still: nothing refills while the query runs.
  const budget = new ResolverBudget(new MemoryLimiterStore({ max: 4 }), 10, () => 1_000_000);
  const upstream = new Upstream(coalesce(openResolverClient()), budget, null, [resolver]);
  try {
    const asked = await upstream.ask({ domain: 'x.example.test', types: ['A'], resolvers: [resolver], timeoutMs: 200 });
    assert.ok(asked.ok && asked.results[0]?.queries.A !== undefined && 'error' in asked.results[0].queries.A);
    assert.is(silent.received, 2);
    assert.is(answerNow<number>((d) => budget.remaining(resolver, d)), 8);
  } finally {
    upstream.close();
    await silent.stop();
  }
});

test('resends sent after the budget ran dry are charged in full: the resolver owes them, and is refused until they are repaid', () => {
  const resolver = { id: 'r', address: '127.0.0.1', port: 53, family: 4 as const };
  let now = 1_000_000;
  const budget = new ResolverBudget(new MemoryLimiterStore({ max: 4 }), 10, () => now);
  assert.equal(answerNow<ResolverReservation>((d) => budget.reserve([[resolver, 10]], d)), { granted: true });
  budget.charge(resolver, 10); // ten resends, all after the last token was gone
  assert.is(answerNow<number>((d) => budget.remaining(resolver, d)), -10);
  // Eleven tokens' worth (the debt and this query) at ten a second: two seconds, not one.
  assert.equal(answerNow<ResolverReservation>((d) => budget.reserve([[resolver, 1]], d)), { granted: false, resolver: 'r', retryAfterSeconds: 2 });
  now += 1000;
  assert.equal(answerNow<ResolverReservation>((d) => budget.reserve([[resolver, 1]], d)), { granted: false, resolver: 'r', retryAfterSeconds: 1 });
  now += 1000;
  assert.equal(answerNow<ResolverReservation>((d) => budget.reserve([[resolver, 1]], d)), { granted: true });
});

test('the engine reports what each query sent, and the response body does not show it', async ({ dns }) => {
  const resolver = { id: 'r', address: dns.address, port: dns.port, family: 4 as const };
  const upstream = new Upstream(coalesce(openResolverClient()), new ResolverBudget(new MemoryLimiterStore({ max: 4 }), 100), null, [resolver]);
  try {
    const asked = await upstream.ask({ domain: 'sent.example.test', types: ['A'], resolvers: [resolver], timeoutMs: 1000 });
    assert.ok(asked.ok);
    const entry = asked.ok ? asked.results[0]?.queries.A : undefined;
    assert.is(sendsOf(entry), 1);
    assert.not.ok(JSON.stringify(entry).includes('sends'));
  } finally {
    upstream.close();
  }
});

test.run();
