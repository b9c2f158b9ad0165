import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { postJson, request } from '../support/http';
import { PausedClockStore } from '../support/paused-clock-store';
import { assertProblem } from '../support/problem';
import { parsePromText, sampleValue, type Sample } from '../support/prom-text';
import { answerA, startScriptedDns, type ScriptedDns } from '../support/scripted-dns';
import { startServer, type RunningServer } from '../support/server';

// Two resolvers, budgets of 10 a second that refill only when the test says so.
const test = suite<{ a: ScriptedDns; b: ScriptedDns; server: RunningServer }>('resolver budget metrics');

test.before(async (ctx) => {
  const answer = (q: Parameters<typeof answerA>[0], dns: ScriptedDns) => void dns.send(answerA(q, '192.0.2.11'), q);
  ctx.a = await startScriptedDns(answer);
  ctx.b = await startScriptedDns(answer);
  ctx.server = await startServer(
    {
      NETTOOLS_RESOLVERS: `a=${ctx.a.address}:${ctx.a.port},b=${ctx.b.address}:${ctx.b.port}`,
      NETTOOLS_RESOLVER_QPS: '10',
      NETTOOLS_RATE_LIMIT: '1000/1s',
    },
    undefined,
    { resolverStore: new PausedClockStore() },
  );
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.a?.stop();
  await ctx.b?.stop();
});

test('/metrics shows, per resolver, the queries sent, the requests refused and the budget left', async ({ server }) => {
  const scrape = async (): Promise<Sample[]> => parsePromText((await request(server.base, '/metrics')).text);
  const before = await scrape();
  const ask = (domain: string, types: string[]) => postJson(server.base, '/api/tools/dns', { domain, types, resolvers: ['a'] });
  for (const name of ['m1', 'm2', 'm3']) assert.is((await ask(`${name}.example.test`, ['A'])).status, 200);
  assert.is((await ask('m4.example.test', ['A', 'AAAA', 'MX', 'TXT'])).status, 200);
  assertProblem(await ask('m5.example.test', ['A', 'AAAA', 'MX', 'TXT']), 503, 'upstream-busy');
  const after = await scrape();
  const delta = (name: string, resolver: string) => sampleValue(after, name, { resolver }) - sampleValue(before, name, { resolver });
  assert.equal(
    [delta('nettools_resolver_queries_sent_total', 'a'), delta('nettools_resolver_budget_refusals_total', 'a'), sampleValue(after, 'nettools_resolver_budget_remaining', { resolver: 'a' })],
    [7, 1, 3],
  );
  assert.equal(
    [delta('nettools_resolver_queries_sent_total', 'b'), delta('nettools_resolver_budget_refusals_total', 'b'), sampleValue(after, 'nettools_resolver_budget_remaining', { resolver: 'b' })],
    [0, 0, 10],
  );
});

test.run();
