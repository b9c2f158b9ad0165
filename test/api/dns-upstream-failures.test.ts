import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { startSilentDns } from '../support/fault-dns';
import { postJson } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { assertProblem } from '../support/problem';
import { answerA, startScriptedDns, type ScriptedDns } from '../support/scripted-dns';
import { startServer, type RunningServer } from '../support/server';

// A resolver that gives no answer is never "no such record": NXDOMAIN, NOERROR without data and "no
// resolver answered" are three different answers of POST /api/tools/dns. Real Knot servers on loopback:
// Knot refuses a name outside its zones and answers SERVFAIL for a zone whose file is missing.
type Silent = Awaited<ReturnType<typeof startSilentDns>>;
const test = suite<{ one: KnotServer; two: KnotServer; broken: KnotServer; stranger: KnotServer; silent: Silent; halfMute: ScriptedDns; server: RunningServer }>('dns: failures told apart');

test.before(async (ctx) => {
  ctx.one = await startKnot([{ domain: 'example.test', records: ['@ A 192.0.2.10', 'onlya A 192.0.2.11'] }], '127.0.0.41');
  ctx.two = await startKnot([{ domain: 'example.test', records: ['@ A 192.0.2.10', 'onlya A 192.0.2.11', 'half TXT "only here"'] }], '127.0.0.42');
  // example.test from a missing file (SERVFAIL); probe.test only lets the harness see it is up.
  ctx.broken = await startKnot([{ domain: 'example.test', missingFile: true }, { domain: 'probe.test' }], '127.0.0.43');
  // Serves another zone only: REFUSED for example.test.
  ctx.stranger = await startKnot([{ domain: 'other.test' }], '127.0.0.44');
  ctx.silent = await startSilentDns();
  // A fault no Knot produces: a resolver that answers A and never anything else.
  ctx.halfMute = await startScriptedDns((q, dns) => {
    if (q.type === 1) void dns.send(answerA(q, '192.0.2.10'), q);
  });
  const { one, two, broken, stranger, silent, halfMute } = ctx;
  ctx.server = await startServer({
    NETTOOLS_RESOLVERS: `one=${one.address}:${one.port},two=${two.address}:${two.port},broken=${broken.address}:${broken.port},stranger=${stranger.address}:${stranger.port},mute=${silent.address}:${silent.port},halfmute=${halfMute.address}:${halfMute.port}`,
    NETTOOLS_RATE_LIMIT: '1000/1s',
  });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.silent?.stop();
  await ctx.halfMute?.stop();
  for (const k of [ctx.one, ctx.two, ctx.broken, ctx.stranger]) await k?.stop();
});

const dns = (server: RunningServer, body: object) => postJson(server.base, '/api/tools/dns', body);

test('every resolver REFUSED: 502 upstream-failed with the resolvers as in a 200, not an empty 200', async ({ server }) => {
  const reply = await dns(server, { domain: 'www.elsewhere.test', types: ['A', 'MX'], resolvers: ['one', 'two'] });
  const body = assertProblem(reply, 502, 'upstream-failed');
  assertMatchesSchema('Problem', body);
  assert.is(body.title, 'No resolver gave an answer');
  assert.is(body.detail, 'no resolver answered any query for www.elsewhere.test: one REFUSED, two REFUSED');
  assert.equal(body.resolvers.map((r: any) => [r.id, r.queries.A.rcode, r.queries.MX.rcode]), [['one', 'REFUSED', 'REFUSED'], ['two', 'REFUSED', 'REFUSED']]);
  assert.type(body.durationMs, 'number');
});

test('SERVFAIL from every resolver is 502 upstream-failed', async ({ server }) => {
  const body = assertProblem(await dns(server, { domain: 'example.test', types: ['A'], resolvers: ['broken'] }), 502, 'upstream-failed');
  assert.is(body.resolvers[0].queries.A.rcode, 'SERVFAIL');
  assert.match(body.detail, 'broken SERVFAIL');
});

test('a refusal beside a timeout is 502 upstream-failed, not 504: one resolver did say something', async ({ server }) => {
  const body = assertProblem(await dns(server, { domain: 'example.test', types: ['A'], resolvers: ['stranger', 'mute'], timeoutMs: 300 }), 502, 'upstream-failed');
  assert.is(body.detail, 'no resolver answered any query for example.test: stranger REFUSED, mute timeout');
  assert.equal(body.resolvers[1].queries.A, { error: 'timeout' });
});

test('every resolver timing out stays 504 upstream-timeout', async ({ server }) => {
  const body = assertProblem(await dns(server, { domain: 'example.test', types: ['A'], resolvers: ['mute'], timeoutMs: 200 }), 504, 'upstream-timeout');
  assertMatchesSchema('Problem', body);
  assert.equal(body.resolvers, [{ id: 'mute', address: '127.0.0.1', queries: { A: { error: 'timeout' } } }]);
});

test('NXDOMAIN is a 200 whose outcome says the name does not exist', async ({ server }) => {
  const reply = await dns(server, { domain: 'gone.example.test', types: ['A', 'TXT'], resolvers: ['one', 'two'] });
  assert.is(reply.status, 200, reply.text);
  const body = reply.json();
  assertMatchesSchema('DnsResult', body);
  assert.equal(body.outcomes, { A: 'nxdomain', TXT: 'nxdomain' });
  assert.is(body.consistent, true);
});

test('NOERROR without the type is a 200 whose outcome is no-data, beside the type that has records', async ({ server }) => {
  const body = (await dns(server, { domain: 'onlya.example.test', types: ['A', 'TXT'], resolvers: ['one', 'two'] })).json();
  assert.equal(body.outcomes, { A: 'records', TXT: 'no-data' });
  assert.equal(body.records, { A: [{ address: '192.0.2.11', ttl: 300 }], TXT: [] });
  assert.is(body.consistent, true);
});

test('a resolver that REFUSED beside one that answered: 200, consistency judged on the answering one', async ({ server }) => {
  const reply = await dns(server, { domain: 'example.test', types: ['A'], resolvers: ['one', 'stranger'] });
  assert.is(reply.status, 200, reply.text);
  const body = reply.json();
  assert.equal(body.outcomes, { A: 'records' });
  assert.is(body.consistent, true);
  assert.is(body.resolvers[1].queries.A.rcode, 'REFUSED');
});

test('NXDOMAIN at one resolver against NOERROR without data at another is inconsistent', async ({ server }) => {
  // half.example.test exists at two (a TXT record) and not at one.
  const body = (await dns(server, { domain: 'half.example.test', types: ['A'], resolvers: ['one', 'two'] })).json();
  assert.equal(body.resolvers.map((r: any) => r.queries.A.rcode), ['NXDOMAIN', 'NOERROR']);
  assert.equal(body.records.A, []);
  assert.is(body.consistent, false);
  assert.equal(body.outcomes, { A: 'no-data' });
});

test('a type no resolver answered is upstream-failed in a 200 whose other type was answered', async ({ server }) => {
  const reply = await dns(server, { domain: 'example.test', types: ['A', 'TXT'], resolvers: ['halfmute', 'mute'], timeoutMs: 300 });
  assert.is(reply.status, 200, reply.text);
  const body = reply.json();
  assertMatchesSchema('DnsResult', body);
  assert.equal(body.outcomes, { A: 'records', TXT: 'upstream-failed' });
  assert.equal(body.records.TXT, []);
  assert.equal(body.resolvers[0].queries.TXT, { error: 'timeout' });
});

test.run();
