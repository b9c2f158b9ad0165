// What the engine puts in a query's OPT record (DO, ECS) and reads from an answer's (EDE, ECS), against a
// scripted resolver on loopback whose answers each test writes; and that coalescing keeps a DO or ECS
// question apart from a plain one in flight.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient, type QueryEntry, type ResolverQuery } from '../../src/engines/dns';
import { coalesce, type CoalescingClient } from '../../src/engines/dns/coalescing-client';
import type { ResolverConfig } from '../../src/config/types';
import { asked } from '../support/asked';
import { ede, queryOpt, withOpt } from '../support/edns-wire';
import { answerA, startScriptedDns, type ScriptedDns, type SeenQuery } from '../support/scripted-dns';

type Reply = (q: SeenQuery) => Buffer | null;
const test = suite<{ dns: ScriptedDns; client: CoalescingClient; resolver: ResolverConfig; replies: Map<string, Reply> }>('EDNS options');

test.before(async (ctx) => {
  ctx.replies = new Map();
  ctx.dns = await startScriptedDns((q, dns) => {
    const reply = ctx.replies.get(q.name.split('.')[0] ?? '') ?? ((x: SeenQuery) => answerA(x, '192.0.2.1'));
    const msg = reply(q);
    if (msg !== null) setTimeout(() => void dns.send(msg, q).catch(() => {}), q.name.startsWith('slow') ? 30 : 0);
  });
  ctx.resolver = { id: 'scripted', address: ctx.dns.address, port: ctx.dns.port, family: 4 };
  ctx.client = coalesce(openResolverClient());
});

test.after(async (ctx) => {
  ctx.client?.close();
  await ctx.dns?.stop();
});

async function ask(ctx: { client: CoalescingClient; resolver: ResolverConfig }, domain: string, extra: Partial<ResolverQuery> = {}): Promise<QueryEntry | undefined> {
  const [r] = await asked(ctx.client, { domain, types: ['A'], resolvers: [ctx.resolver], timeoutMs: 2000, ...extra });
  return r?.queries.A;
}

const seenFor = (dns: ScriptedDns, name: string) => dns.seen.filter((q) => q.name === name);

test('dnssec sets the DO bit; a plain query leaves it clear', async (ctx) => {
  await ask(ctx, 'do.example.test', { dnssec: true });
  await ask(ctx, 'plain.example.test');
  assert.is(queryOpt(seenFor(ctx.dns, 'do.example.test')[0] as SeenQuery).flags, 0x8000);
  assert.is(queryOpt(seenFor(ctx.dns, 'plain.example.test')[0] as SeenQuery).flags, 0);
});

test('the ECS option carries the family, the prefix and only its bytes, bits past the prefix zeroed', async (ctx) => {
  await ask(ctx, 'ecs4.example.test', { clientSubnet: { address: '203.0.113.77', prefix: 20 } });
  await ask(ctx, 'ecs6.example.test', { clientSubnet: { address: '2001:db8:1234:5600::', prefix: 56 } });
  const v4 = queryOpt(seenFor(ctx.dns, 'ecs4.example.test')[0] as SeenQuery).options;
  const v6 = queryOpt(seenFor(ctx.dns, 'ecs6.example.test')[0] as SeenQuery).options;
  assert.equal(v4.map((o) => [o.code, [...o.data]]), [[8, [0, 1, 20, 0, 203, 0, 112]]]);
  assert.equal(v6.map((o) => [o.code, [...o.data]]), [[8, [0, 2, 56, 0, 0x20, 0x01, 0x0d, 0xb8, 0x12, 0x34, 0x56]]]);
});

test('an answer echoing ECS with a scope reports both prefixes', async (ctx) => {
  ctx.replies.set('scoped', (q) => {
    const sent = queryOpt(q).options.find((o) => o.code === 8) as { data: Buffer };
    const echoed = Buffer.from(sent.data);
    echoed[3] = 16; // SCOPE PREFIX-LENGTH
    return withOpt(answerA(q, '192.0.2.2'), [{ code: 8, data: echoed }]);
  });
  const entry = await ask(ctx, 'scoped.example.test', { clientSubnet: { address: '203.0.113.0', prefix: 24 } });
  assert.equal(entry && 'rcode' in entry ? entry.clientSubnet : entry, { sourcePrefix: 24, scopePrefix: 16 });
});

test('an answer without ECS to a query that sent it reports it ignored; one that sent none reports nothing', async (ctx) => {
  ctx.replies.set('bare', (q) => withOpt(answerA(q, '192.0.2.3'), []));
  const sent = await ask(ctx, 'bare.example.test', { clientSubnet: { address: '203.0.113.0', prefix: 24 } });
  const unsent = await ask(ctx, 'bare.example.test');
  assert.equal(sent && 'rcode' in sent ? sent.clientSubnet : sent, { ignored: true });
  assert.ok(unsent !== undefined && 'rcode' in unsent && !('clientSubnet' in unsent));
});

test('EDE options: registry names, unknown codes named unknown, empty text left out, text cut at 512 bytes', async (ctx) => {
  ctx.replies.set('ede', (q) => withOpt(answerA(q, '192.0.2.4'), [ede(3), ede(29, 'synth'), ede(30, 'x'.repeat(600))]));
  const entry = await ask(ctx, 'ede.example.test');
  const got = entry && 'rcode' in entry ? entry.ede : undefined;
  assert.equal(got?.slice(0, 2), [{ code: 3, name: 'Stale Answer' }, { code: 29, name: 'Synthesized', text: 'synth' }]);
  assert.equal([got?.[2]?.code, got?.[2]?.name, got?.[2]?.text?.length], [30, 'unknown', 512]);
});

test('EDE text that is not UTF-8 comes out with U+FFFD in place of the bad bytes', async (ctx) => {
  ctx.replies.set('badtext', (q) => {
    const opt = ede(0);
    return withOpt(answerA(q, '192.0.2.5'), [{ code: 15, data: Buffer.concat([opt.data, Buffer.from([0x6f, 0x6b, 0xff, 0x21])]) }]);
  });
  const entry = await ask(ctx, 'badtext.example.test');
  assert.equal(entry && 'rcode' in entry ? entry.ede : entry, [{ code: 0, name: 'Other Error', text: 'ok\ufffd!' }]);
});

test('a DO question is not answered by the same plain question in flight, nor the reverse', async (ctx) => {
  const plain = ask(ctx, 'slow-do.example.test');
  const withDo = ask(ctx, 'slow-do.example.test', { dnssec: true });
  await Promise.all([plain, withDo]);
  // A resend repeats a query's ID: distinct IDs are distinct upstream queries.
  const queries = new Map(seenFor(ctx.dns, 'slow-do.example.test').map((q) => [q.id, queryOpt(q).flags]));
  assert.equal([...queries.values()].sort(), [0, 0x8000]);
});

test('ECS questions for two subnets in flight at once go upstream separately', async (ctx) => {
  const a = ask(ctx, 'slow-ecs.example.test', { clientSubnet: { address: '203.0.113.0', prefix: 24 } });
  const b = ask(ctx, 'slow-ecs.example.test', { clientSubnet: { address: '198.51.100.0', prefix: 24 } });
  const c = ask(ctx, 'slow-ecs.example.test', { clientSubnet: { address: '198.51.100.0', prefix: 24 } });
  await Promise.all([a, b, c]);
  assert.is(new Set(seenFor(ctx.dns, 'slow-ecs.example.test').map((q) => q.id)).size, 2);
});

test.run();
