import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, type ChildServer } from '../support/child-server';
import { postJson, request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { assertProblem } from '../support/problem';
import { parsePromText, sampleValue } from '../support/prom-text';
import { waitFor } from '../support/wait';

// A resolver budget of 4 a second and requests for 4 types: each request is the whole budget, so a
// second one fits only after a whole second of refill, however the requests fall on the two workers.
const test = suite<{ knot: KnotServer; server: ChildServer }>('the resolver budget across two worker threads');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'budget.test', records: ['* A 127.0.0.1'] }], '127.0.0.33');
  ctx.server = await spawnServer({
    NETTOOLS_WORKERS: '2',
    NETTOOLS_RESOLVERS: `knot=127.0.0.33:${ctx.knot.port}`,
    NETTOOLS_RESOLVER_QPS: '4',
    NETTOOLS_RATE_LIMIT: '1000/1s',
    NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '100',
  });
});

test.after(async (ctx) => {
  if (ctx.server && ctx.server.child.exitCode === null) {
    ctx.server.child.kill('SIGTERM');
    await ctx.server.exited;
  }
  await ctx.knot?.stop();
});

test("/metrics shows the resolver's remaining budget once, not once per worker", async ({ server }) => {
  const samples = parsePromText((await request(server.base, '/metrics')).text);
  assert.is(sampleValue(samples, 'nettools_resolver_budget_remaining', { resolver: 'knot' }), 4);
});

test('whole-budget requests spread over both workers: exactly one is admitted, the rest are 503 upstream-busy', async ({ server }) => {
  const seen = server.logs.length;
  const replies = await Promise.all(Array.from({ length: 16 }, (_, i) => postJson(server.base, '/api/tools/dns', { domain: `n${i}.budget.test`, types: ['A', 'AAAA', 'MX', 'TXT'] })));
  assert.is(replies.filter((r) => r.status === 200).length, 1);
  for (const r of replies.filter((r) => r.status !== 200)) assertProblem(r, 503, 'upstream-busy');
  // Access log lines are written asynchronously: wait for all 16, then check both workers answered.
  const answered = () => server.logs.slice(seen).map((l) => JSON.parse(l)).filter((l) => l.path === '/api/tools/dns');
  await waitFor('16 dns lines logged', () => answered().length >= 16);
  assert.equal([...new Set(answered().map((l) => l.worker))].sort(), [0, 1]);
});

test.run();
