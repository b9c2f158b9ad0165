import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NettoolsClient, resolversFailed, unansweredTypes, type HostResolverReport, type WaitNotice } from '../../clients/typescript/src/index';
import { assertMatchesSchema } from '../support/contract';
import { answerA, startScriptedDns } from '../support/scripted-dns';
import { startServer } from '../support/server';
import { freeTcpPort } from '../support/ports';
import { fullBucket, startRig, stopRig, type Rig } from './servers';

const test = suite<Rig>('typed client against a real server');

test.before(async (ctx) => {
  Object.assign(ctx, await startRig(111));
});

test.after(async (ctx) => {
  await stopRig(ctx);
});

const client = (base: string, more: Partial<ConstructorParameters<typeof NettoolsClient>[0]> = {}) => new NettoolsClient({ baseUrl: base, ...more });

test('ping() answers the typed measurement and the budget it read', async ({ open }) => {
  const answer = await client(open.base).ping({ host: '127.0.0.1', count: 2, intervalMs: 100 });
  assert.ok(answer.ok, JSON.stringify(answer));
  assertMatchesSchema('PingResult', answer.value);
  assert.is(answer.value.reachable, true);
  assert.equal(answer.value.packets, { sent: 2, received: 2, duplicates: 0, lossPercent: 0 });
  assert.is(answer.rateLimit.policy, 'default');
  assert.is(answer.rateLimit.limit, 100);
  assert.type(answer.rateLimit.remaining, 'number');
  assert.match(answer.requestId ?? '', /^[0-9a-f-]{36}$/);
});

test('ping() of ::1 goes over IPv6', async ({ open }) => {
  const answer = await client(open.base).ping({ host: '::1', count: 1 });
  assert.ok(answer.ok && answer.value.ipVersion === 6 && answer.value.reachable);
});

test('dns() answers the merged records of the asked types', async ({ open }) => {
  const answer = await client(open.base).dns({ domain: 'example.test', types: ['MX', 'TXT'], resolvers: ['a', 'b'] });
  assert.ok(answer.ok, JSON.stringify(answer));
  assertMatchesSchema('DnsResult', answer.value);
  assert.equal(answer.value.records, { MX: [{ priority: 10, exchange: 'mail.example.test', ttl: 300 }], TXT: [{ value: 'v=spf1 -all', parts: ['v=spf1 -all'], ttl: 300 }] });
  assert.is(answer.value.consistent, true);
});

test('dns() of a name the resolvers refuse is the upstream-failed problem, told apart by resolversFailed()', async ({ open }) => {
  // Knot refuses a name outside its zones.
  const answer = await client(open.base).dns({ domain: 'www.elsewhere.test', types: ['A'], resolvers: ['a', 'b'] });
  assert.ok(!answer.ok && answer.error.kind === 'problem', JSON.stringify(answer));
  assert.is(answer.error.status, 502);
  assert.is(answer.error.problem.code, 'upstream-failed');
  assert.equal(answer.error.problem.resolvers?.map((r) => r.id), ['a', 'b']);
  assert.is(resolversFailed(answer.error), true);
  assert.equal(answer.waits, []);
});

test('dns() of a name that does not exist is a value whose outcomes say nxdomain, not a failure', async ({ open }) => {
  const answer = await client(open.base).dns({ domain: 'gone.example.test', types: ['A', 'MX'], resolvers: ['a', 'b'] });
  assert.ok(answer.ok, JSON.stringify(answer));
  assert.equal(answer.value.outcomes, { A: 'nxdomain', MX: 'nxdomain' });
  assert.equal(unansweredTypes(answer.value), []);
});

test('unansweredTypes() names the types of a dns 200 that no resolver answered', async () => {
  // A fault no Knot produces: a resolver that answers A and never anything else.
  const halfMute = await startScriptedDns((q, dns) => {
    if (q.type === 1) void dns.send(answerA(q, '192.0.2.10'), q);
  });
  const server = await startServer({ NETTOOLS_RESOLVERS: `halfmute=${halfMute.address}:${halfMute.port}` });
  try {
    const answer = await client(server.base).dns({ domain: 'example.test', types: ['A', 'MX'], timeoutMs: 300 });
    assert.ok(answer.ok, JSON.stringify(answer));
    assert.equal(answer.value.outcomes, { A: 'records', MX: 'upstream-failed' });
    assert.equal(unansweredTypes(answer.value), ['MX']);
  } finally {
    await server.stop();
    await halfMute.stop();
  }
});

test('ping() of a refused name is upstream-failed with what each resolver said; a missing name is host-not-found', async ({ open }) => {
  const refused = await client(open.base).ping({ host: 'www.elsewhere.test', count: 1 });
  assert.ok(!refused.ok && refused.error.kind === 'problem', JSON.stringify(refused));
  assert.is(refused.error.problem.code, 'upstream-failed');
  const said: HostResolverReport[] = (refused.error.problem.resolvers ?? []) as HostResolverReport[];
  assert.equal(said.map((r) => r.rcode), ['REFUSED', 'REFUSED', 'REFUSED']);
  const missing = await client(open.base).ping({ host: 'gone.example.test', count: 1 });
  assert.ok(!missing.ok && missing.error.kind === 'problem');
  assert.is(missing.error.problem.code, 'host-not-found');
  assert.is(missing.error.problem.dns, 'nxdomain');
  assert.is(resolversFailed(missing.error), false);
});

test('limits() answers the plan and budget without spending a token', async ({ open }) => {
  // From a full bucket: a bucket part-way through a refill could gain a token between the two reads.
  await fullBucket(open.base);
  const c = client(open.base);
  const first = await c.limits();
  const second = await c.limits();
  assert.ok(first.ok && second.ok);
  assertMatchesSchema('Limits', first.value);
  assert.is(first.value.plan, 'default');
  assert.is(first.value.remaining, first.value.limit);
  assert.is(second.value.remaining, first.value.remaining);
});

test('a refusal is a typed problem value, not a throw', async ({ open }) => {
  const answer = await client(open.base).ping({ host: '127.0.0.1', count: 50 });
  assert.ok(!answer.ok && answer.error.kind === 'problem');
  assert.is(answer.error.status, 400);
  assert.is(answer.error.problem.code, 'validation-failed');
  assert.equal(answer.error.problem.errors, [{ pointer: '/count', message: 'must be <= 10' }]);
});

test("a 429 from a 2-token bucket is waited out as Retry-After says, then resent", async ({ limited }) => {
  await fullBucket(limited.base);
  const notices: WaitNotice[] = [];
  const c = client(limited.base, { onWait: (n) => notices.push(n) });
  const ask = () => c.dns({ domain: 'example.test', types: ['A'], resolvers: ['a'] });
  assert.ok((await ask()).ok);
  assert.ok((await ask()).ok);
  const started = Date.now();
  const third = await ask();
  const elapsed = Date.now() - started;
  assert.ok(third.ok, JSON.stringify(third));
  assert.equal(notices.map((n) => [n.status, n.code, n.attempt]), [[429, 'rate-limited', 1]]);
  assert.ok(notices[0]!.seconds >= 1);
  assert.equal(third.waits, [notices[0]!.seconds]);
  assert.ok(elapsed >= notices[0]!.seconds * 1000 - 50, `answered after ${elapsed} ms, before Retry-After passed`);
  assert.is(c.lastRateLimit.policy, 'default');
  assert.is(c.lastRateLimit.limit, 2);
});

test('with retry off, the 429 comes back at once with its Retry-After', async ({ limited }) => {
  await fullBucket(limited.base);
  const c = client(limited.base, { retry: false });
  let last;
  for (let i = 0; i < 3; i++) last = await c.dns({ domain: 'example.test', types: ['A'], resolvers: ['a'] });
  assert.ok(last && !last.ok && last.error.kind === 'problem');
  assert.is(last.error.problem.code, 'rate-limited');
  assert.ok((last.rateLimit.retryAfterSeconds ?? 0) >= 1);
  assert.equal(last.waits, []);
});

test('a Retry-After longer than maxWaitSeconds is returned, not waited', async ({ limited }) => {
  await fullBucket(limited.base);
  const notices: WaitNotice[] = [];
  const c = client(limited.base, { retry: { maxWaitSeconds: 0 }, onWait: (n) => notices.push(n) });
  let last;
  for (let i = 0; i < 3; i++) last = await c.dns({ domain: 'example.test', types: ['A'], resolvers: ['a'] });
  assert.ok(last && !last.ok && last.error.kind === 'problem' && last.error.status === 429);
  assert.equal(notices, []);
});

test('an API key is sent and its plan served', async ({ keyed, pro }) => {
  const answer = await client(keyed.base, { apiKey: pro }).limits();
  assert.ok(answer.ok && answer.value.plan === 'pro', JSON.stringify(answer));
});

test('a key the server does not know is refused with 401 invalid-api-key', async ({ keyed }) => {
  const answer = await client(keyed.base, { apiKey: `nt_${'A'.repeat(43)}` }).ping({ host: '127.0.0.1', count: 1 });
  assert.ok(!answer.ok && answer.error.kind === 'problem', JSON.stringify(answer));
  assert.is(answer.error.status, 401);
  assert.is(answer.error.problem.code, 'invalid-api-key');
});

test('no server listening is a network error value', async () => {
  const port = await freeTcpPort('127.0.0.1');
  const answer = await client(`http://127.0.0.1:${port}`).limits();
  assert.ok(!answer.ok && answer.error.kind === 'network', JSON.stringify(answer));
  assert.match(answer.error.message, 'ECONNREFUSED');
});

test("an aborted call is an aborted value", async ({ open }) => {
  const answer = await client(open.base).limits({ signal: AbortSignal.abort() });
  assert.ok(!answer.ok && answer.error.kind === 'aborted', JSON.stringify(answer));
});

test("an answer that is not the API's (an HTML page) is unexpected, with its status", async ({ open }) => {
  const page = (_url: string | URL | Request, init?: RequestInit) => fetch(`${open.base}/docs`, init);
  const answer = await client(open.base, { fetch: page }).limits();
  assert.ok(!answer.ok && answer.error.kind === 'unexpected' && answer.error.status === 200, JSON.stringify(answer));
  assert.match(answer.error.message, 'text/html');
});

test.run();
