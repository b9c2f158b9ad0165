import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { postJson } from '../support/http';
import { assertProblem } from '../support/problem';
import { answerA, startScriptedDns, type ScriptedDns, type SeenQuery } from '../support/scripted-dns';
import { startServer, type RunningServer } from '../support/server';
import { waitFor } from '../support/wait';

// A resolver that answers only when the test says so: what a request that joined a query still in
// flight gets cannot then depend on how fast the machine runs.
const test = suite<{ dns: ScriptedDns; server: RunningServer; held: SeenQuery[] }>('joining a question already in flight');

test.before(async (ctx) => {
  ctx.held = [];
  ctx.dns = await startScriptedDns((q) => void ctx.held.push(q));
  ctx.server = await startServer({
    NETTOOLS_RESOLVERS: `held=${ctx.dns.address}:${ctx.dns.port}`,
    NETTOOLS_RATE_LIMIT: '1000/1s',
    NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '100',
  });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.dns?.stop();
});

test('a request that joins a query with a longer timeout than its own is answered by its own deadline; the query still answers the others', async ({ dns, server, held }) => {
  const ask = (timeoutMs: number) => postJson(server.base, '/api/tools/dns', { domain: 'joined.example.test', types: ['A'], timeoutMs });
  const patient = ask(5000);
  let patientDone = false;
  void patient.then(() => (patientDone = true));
  await waitFor('the query at the holding resolver', () => held.length === 1);
  // Joins the query in flight (nothing new goes upstream) and gives up on it after 300 ms.
  const hasty = assertProblem(await ask(300), 504, 'upstream-timeout');
  assert.equal(hasty.resolvers[0].queries.A, { error: 'timeout' });
  assert.is(dns.seen.length, 1);
  assert.not.ok(patientDone);
  // Only now does the resolver answer: the query was not cancelled by the one that gave up.
  const query = held[0] as SeenQuery;
  await dns.send(answerA(query, '192.0.2.10'), query);
  const reply = await patient;
  assert.is(reply.status, 200, reply.text);
  assert.equal(reply.json().records.A.map((a: { address: string }) => a.address), ['192.0.2.10']);
});

test.run();
