import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResolverConfig } from '../../src/config/types';
import { openResolverClient } from '../../src/engines/dns';
import { coalesce } from '../../src/engines/dns/coalescing-client';
import { ResolverBudget } from '../../src/ratelimit/resolver-budget';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';
import { resolveHost } from '../../src/tools/resolve-host';
import { Upstream } from '../../src/tools/upstream';
import { startSilentDns } from '../support/fault-dns';
import { startKnot, type KnotServer } from '../support/knot';
import { answerA, startScriptedDns, type ScriptedDns, type SeenQuery } from '../support/scripted-dns';
import { CancelSource } from '../../src/util/cancel';
import { waitFor } from '../support/wait';
import { answerNow } from '../support/answer';
import { parseAddress } from '../../src/net/address';

// A host name as the ping schema's normalize step hands it over.
const nameHost = (value: string) => ({ kind: 'name' as const, value });

// Every packet the engine sends to a resolver is charged to its budget once, whoever still waits for
// the answer: budgets of 10 a second on a clock that stands still, so nothing refills meanwhile.
type Silent = Awaited<ReturnType<typeof startSilentDns>>;
const test = suite<{ silent: Silent; mute: ResolverConfig; knot: KnotServer; held: SeenQuery[]; holder: ScriptedDns }>('what resolvers are sent is charged');

test.before(async (ctx) => {
  ctx.silent = await startSilentDns();
  ctx.mute = { id: 'mute', address: ctx.silent.address, port: ctx.silent.port, family: 4 };
  // Every UDP answer from this zone has TC set: the engine asks again over TCP.
  ctx.knot = await startKnot([{ domain: 'tc.test', noUdp: true, records: ['a A 127.0.0.9'] }], '127.0.0.31');
  ctx.held = [];
  ctx.holder = await startScriptedDns((q) => void ctx.held.push(q));
});

test.after(async (ctx) => {
  await ctx.silent?.stop();
  await ctx.knot?.stop();
  await ctx.holder?.stop();
});

function upstream(resolvers: ResolverConfig[]): { upstream: Upstream; budget: ResolverBudget } {
  const budget = new ResolverBudget(new MemoryLimiterStore({ max: 8 }), 10, () => 1_000_000);
  return { upstream: new Upstream(coalesce(openResolverClient()), budget, null, resolvers), budget };
}

test('a resend is charged when the request that launched the shared query has gone and another still waits', async ({ silent, mute }) => {
  const { upstream: up, budget } = upstream([mute]);
  try {
    const request = { domain: 'left.example.test', types: ['A' as const], resolvers: [mute], timeoutMs: 400 };
    const launcher = new CancelSource();
    const first = up.ask(request, launcher);
    const second = up.ask(request);
    const before = silent.received;
    await waitFor('the first query at the silent resolver', () => silent.received - before === 1);
    launcher.abort();
    await first;
    const stayed = await second;
    assert.equal(stayed.ok && stayed.results[0]?.queries.A, { error: 'timeout' });
    assert.is(silent.received - before, 2);
    assert.is(answerNow<number>((d) => budget.remaining(mute, d)), 8); // the first send, reserved; the resend, charged
  } finally {
    up.close();
  }
});

test('a query cancelled after its resend is charged for the resend', async ({ silent, mute }) => {
  const { upstream: up, budget } = upstream([mute]);
  try {
    const leaving = new CancelSource();
    const before = silent.received;
    const asked = up.ask({ domain: 'gone.example.test', types: ['A'], resolvers: [mute], timeoutMs: 2000 }, leaving);
    await waitFor('the resend at the silent resolver', () => silent.received - before === 2);
    leaving.abort();
    await asked;
    assert.is(answerNow<number>((d) => budget.remaining(mute, d)), 8);
  } finally {
    up.close();
  }
});

test("ping's resolver race: a resolver cancelled after its resend is charged for it", async ({ silent, mute, holder, held }) => {
  const slow: ResolverConfig = { id: 'slow', address: holder.address, port: holder.port, family: 4 };
  const { upstream: up, budget } = upstream([mute, slow]);
  try {
    const before = silent.received;
    const resolving = resolveHost(nameHost('race.example.test'), { client: up, resolvers: [mute, slow], ipVersion: 4, timeoutMs: 2000 });
    // The slow resolver answers only once both have been sent their resend (the same ID again).
    await waitFor('both resolvers sent their resend', () => silent.received - before === 2 && held.length === 2);
    await holder.send(answerA(held[1] as SeenQuery, '127.0.0.5'), held[1] as SeenQuery);
    assert.equal(await resolving, { ok: true, host: { address: parseAddress('127.0.0.5'), shown: '127.0.0.5', literal: false } });
    assert.is(answerNow<number>((d) => budget.remaining(slow, d)), 8);
    assert.is(answerNow<number>((d) => budget.remaining(mute, d)), 8); // cancelled when the other answered, its resend charged all the same
  } finally {
    up.close();
  }
});

test('two requests asking the same question in the same turn reserve it once', async ({ holder, held }) => {
  const slow: ResolverConfig = { id: 'slow', address: holder.address, port: holder.port, family: 4 };
  const { upstream: up, budget } = upstream([slow]);
  try {
    held.length = 0;
    const request = { domain: 'twice.example.test', types: ['A' as const], resolvers: [slow], timeoutMs: 2000 };
    const both = Promise.all([up.ask(request), up.ask(request)]);
    await waitFor('the one query at the holding resolver', () => held.length === 1);
    await holder.send(answerA(held[0] as SeenQuery, '127.0.0.5'), held[0] as SeenQuery);
    for (const asked of await both) assert.ok(asked.ok && 'rcode' in (asked.results[0]?.queries.A ?? {}));
    assert.is(answerNow<number>((d) => budget.remaining(slow, d)), 9);
  } finally {
    up.close();
  }
});

test('two pings of the same name in the same turn reserve its query once', async ({ holder, held }) => {
  const slow: ResolverConfig = { id: 'slow', address: holder.address, port: holder.port, family: 4 };
  const { upstream: up, budget } = upstream([slow]);
  try {
    held.length = 0;
    const resolve = () => resolveHost(nameHost('twice.example.test'), { client: up, resolvers: [slow], ipVersion: 4, timeoutMs: 2000 });
    const both = Promise.all([resolve(), resolve()]);
    await waitFor('the one query at the holding resolver', () => held.length === 1);
    await holder.send(answerA(held[0] as SeenQuery, '127.0.0.5'), held[0] as SeenQuery);
    for (const r of await both) assert.equal(r, { ok: true, host: { address: parseAddress('127.0.0.5'), shown: '127.0.0.5', literal: false } });
    assert.is(answerNow<number>((d) => budget.remaining(slow, d)), 9);
  } finally {
    up.close();
  }
});

test('a TCP fall-back is charged to the budget: a truncated answer asked again over TCP costs two', async ({ knot }) => {
  const resolver = knot.resolver('knot');
  const { upstream: up, budget } = upstream([resolver]);
  try {
    const asked = await up.ask({ domain: 'a.tc.test', types: ['A'], resolvers: [resolver], timeoutMs: 2000 });
    const entry = asked.ok ? asked.results[0]?.queries.A : undefined;
    assert.ok(entry !== undefined && 'transport' in entry && entry.transport === 'tcp', JSON.stringify(entry));
    assert.is(answerNow<number>((d) => budget.remaining(resolver, d)), 8);
  } finally {
    up.close();
  }
});

test.run();
