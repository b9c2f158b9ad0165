// Entries as they settle through the coalescing client: the request that launches an upstream call is
// told each entry as the engine settles it; a request that joins is told its entries when the call it
// joined ends. Over the real engine and a scripted resolver on loopback that answers A at once, MX after
// 300 ms, and never answers names starting with "silent".
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient, type SettledEntry } from '../../src/engines/dns';
import { coalesce, type CoalescingClient } from '../../src/engines/dns/coalescing-client';
import type { ResolverConfig } from '../../src/config/types';
import { answerA, startScriptedDns, type ScriptedDns } from '../support/scripted-dns';
import { CancelSource } from '../../src/util/cancel';
import { asked } from '../support/asked';

const MX = 15;
const test = suite<{ dns: ScriptedDns; client: CoalescingClient; resolver: ResolverConfig }>('coalescing progress');

// Waiters for the scripted resolver having sent its answer to a name and type.
const sent = new Map<string, () => void>();
function answerSent(name: string, type: number): Promise<void> {
  return new Promise((resolve) => sent.set(`${name} ${type}`, resolve));
}

test.before(async (ctx) => {
  ctx.dns = await startScriptedDns((q, dns) => {
    if (q.name.startsWith('silent')) return;
    const answer = () => dns.send(answerA(q, '192.0.2.9'), q).then(() => sent.get(`${q.name} ${q.type}`)?.());
    setTimeout(() => void answer(), q.type === MX ? 300 : 0);
  });
  ctx.resolver = { id: 'scripted', address: ctx.dns.address, port: ctx.dns.port, family: 4 };
  ctx.client = coalesce(openResolverClient());
});

test.after(async (ctx) => {
  ctx.client?.close();
  await ctx.dns?.stop();
});

test('the launching request is told its fast entry while the slow one is still pending', async ({ client, resolver }) => {
  const told: Array<[string, boolean]> = [];
  let done = false;
  const pending = asked(client, { domain: 'owner.example.test', types: ['MX', 'A'], resolvers: [resolver], timeoutMs: 5000 }, undefined, undefined, (s) => told.push([s.type, done]));
  const [r] = await pending.then((x) => ((done = true), x));
  assert.equal(told, [['A', false], ['MX', false]]);
  assert.ok(r !== undefined && 'rcode' in (r.queries.A ?? {}) && 'rcode' in (r.queries.MX ?? {}));
});

test('a joining request is told its entries when the call it joined ends, with their indexes', async ({ client, resolver }) => {
  const request = { domain: 'joined.example.test', types: ['A' as const, 'MX' as const], resolvers: [resolver], timeoutMs: 5000 };
  const launcher = asked(client, request);
  const told: SettledEntry[] = [];
  const [r] = await asked(client, request, undefined, undefined, (s) => told.push(s));
  await launcher;
  assert.equal(told.map((s) => [s.resolverIndex, s.typeIndex, s.type]), [[0, 0, 'A'], [0, 1, 'MX']]);
  assert.equal(told.map((s) => s.entry), [r?.queries.A, r?.queries.MX]);
});

test('a joining request whose deadline passes first is told the rest as timeouts', async ({ client, resolver }) => {
  const launcher = asked(client, { domain: 'silent.example.test', types: ['A'], resolvers: [resolver], timeoutMs: 2000 });
  const told: SettledEntry[] = [];
  const [r] = await asked(client, { domain: 'silent.example.test', types: ['A'], resolvers: [resolver], timeoutMs: 200 }, undefined, undefined, (s) => told.push(s));
  assert.equal(told.map((s) => s.entry), [{ error: 'timeout' }]);
  assert.equal(r?.queries.A, { error: 'timeout' });
  await launcher;
});

test('a launching request that goes away is told nothing more', async ({ client, resolver }) => {
  const told: string[] = [];
  const gone = new CancelSource();
  const lateMx = answerSent('gone.example.test', MX);
  const pending = asked(client, { domain: 'gone.example.test', types: ['A', 'MX'], resolvers: [resolver], timeoutMs: 5000 }, gone, undefined, (s) => {
    told.push(s.type);
    gone.abort();
  });
  const [r] = await pending;
  assert.equal(told, ['A']);
  assert.equal(r?.queries.MX, { error: 'cancelled' });
  // The MX answer comes after the request went away. Loopback delivers a datagram within its send, so an
  // answer sent after it reaches the client after it: once that one is back, the late MX has been read.
  await lateMx;
  await asked(client, { domain: 'after-gone.example.test', types: ['A'], resolvers: [resolver], timeoutMs: 5000 });
  assert.equal(told, ['A']);
});

test('a request that cannot start anything is told its entries after query() returned', async ({ client }) => {
  const told: SettledEntry[] = [];
  let returned = false;
  const pending = asked(client, { domain: 'bad.example.test', types: ['A'], resolvers: [{ id: 'bad', address: 'x.invalid', port: 53, family: 4 }], timeoutMs: 500 }, undefined, undefined, (s) => {
    assert.ok(returned);
    told.push(s);
  });
  returned = true;
  const [r] = await pending;
  assert.equal(told.map((s) => s.entry), [{ error: 'invalid-address' }]);
  assert.equal(r?.queries.A, { error: 'invalid-address' });
});

test.run();
