import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient } from '../../src/engines/dns';
import { coalesce, type CoalescingClient } from '../../src/engines/dns/coalescing-client';
import type { ResolverConfig } from '../../src/config/types';
import { answerA, startScriptedDns, type ScriptedDns } from '../support/scripted-dns';
import { CancelSource } from '../../src/util/cancel';
import { asked } from '../support/asked';

// The coalescing client on its own, over the real engine: a resolver that answers A at once, MX after
// 200 ms, and never answers names starting with "silent".
const MX = 15;
const test = suite<{ dns: ScriptedDns; client: CoalescingClient; resolver: ResolverConfig }>('coalescing client');

test.before(async (ctx) => {
  ctx.dns = await startScriptedDns((q, dns) => {
    if (q.name.startsWith('silent')) return;
    setTimeout(() => void dns.send(answerA(q, '192.0.2.9'), q), q.type === MX ? 200 : 0);
  });
  ctx.resolver = { id: 'scripted', address: ctx.dns.address, port: ctx.dns.port, family: 4 };
  ctx.client = coalesce(openResolverClient());
});

test.after(async (ctx) => {
  ctx.client?.close();
  await ctx.dns?.stop();
});

test('when every request waiting for a shared query goes away, the query is cancelled', async ({ client, resolver }) => {
  const before = client.counters().cancelled;
  const request = { domain: 'silent.example.test', types: ['A' as const], resolvers: [resolver], timeoutMs: 5000 };
  const first = new CancelSource();
  const second = new CancelSource();
  const answers = Promise.all([asked(client, request, first), asked(client, request, second)]);
  first.abort();
  assert.is(client.counters().inFlight, 1);
  second.abort();
  for (const [r] of await answers) assert.equal(r?.queries.A, { error: 'cancelled' });
  assert.is(client.counters().inFlight, 0);
  assert.is(client.counters().cancelled - before, 1);
});

test('a request that joins a query and goes away leaves it running for the request that launched it', async ({ client, resolver }) => {
  const before = client.counters().cancelled;
  const request = { domain: 'launcher.example.test', types: ['MX' as const], resolvers: [resolver], timeoutMs: 5000 };
  const launcher = asked(client, request);
  const joining = new CancelSource();
  const joined = asked(client, request, joining);
  joining.abort();
  assert.equal((await joined)[0]?.queries.MX, { error: 'cancelled' });
  assert.is(client.counters().inFlight, 1);
  const [answer] = await launcher;
  assert.ok(answer !== undefined && 'rcode' in (answer.queries.MX ?? {}), JSON.stringify(answer?.queries));
  assert.is(client.counters().cancelled - before, 0);
});

test("a request's answers keep its types' order whichever arrives first", async ({ client, resolver }) => {
  const mxFirst = asked(client, { domain: 'order.example.test', types: ['MX'], resolvers: [resolver], timeoutMs: 5000 });
  const [both] = await asked(client, { domain: 'order.example.test', types: ['MX', 'A'], resolvers: [resolver], timeoutMs: 5000 });
  assert.equal(Object.keys(both?.queries ?? {}), ['MX', 'A']);
  assert.ok('rcode' in (both?.queries.A ?? {}) && 'rcode' in (both?.queries.MX ?? {}));
  await mxFirst;
});

test('a question is no longer in flight once answered', async ({ client, resolver }) => {
  const request = { domain: 'once.example.test', types: ['A' as const], resolvers: [resolver], timeoutMs: 5000 };
  const pending = asked(client, request);
  assert.equal([...client.newQuestions(request)], []);
  await pending;
  assert.equal([...client.newQuestions(request)], [[resolver, ['A']]]);
});

test.run();
