import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { postJson } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { assertProblem } from '../support/problem';
import { startServer, type RunningServer } from '../support/server';
import { waitFor } from '../support/wait';
import { parseNdjson, parseSse, postStream } from './stream-reader';

// Streamed dns (CONTRACT "Streamed results") against two loopback Knot servers.
const test = suite<{ a: KnotServer; b: KnotServer; server: RunningServer }>('POST /api/tools/dns, streamed');

const records = ['@ A 192.0.2.10', '@ TXT "hello"'];

test.before(async (ctx) => {
  ctx.a = await startKnot([{ domain: 'stream.test', records }], '127.0.0.31');
  ctx.b = await startKnot([{ domain: 'stream.test', records }], '127.0.0.32');
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: `a=127.0.0.31:${ctx.a.port},b=127.0.0.32:${ctx.b.port}`, NETTOOLS_RATE_LIMIT: '1000/1s' });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.a?.stop();
  await ctx.b?.stop();
});

const ASK = { domain: 'stream.test', types: ['A', 'TXT'], resolvers: ['a', 'b'], timeoutMs: 3000 };

test('answers arrive as each resolver answers: a paused resolver answers last, and the summary comes at the end', async ({ server, b }) => {
  b.pause();
  let s;
  try {
    s = await postStream(server.base, '/api/tools/dns', ASK, 'application/x-ndjson');
    const stream = s;
    await waitFor("resolver a's two answers", async () => (stream.text().match(/"resolver":"a"/g) ?? []).length === 2, { everyMs: 10 });
    assert.not.match(stream.text(), /"resolver":"b"/);
  } finally {
    b.resume();
  }
  await s.ended;
  const events = parseNdjson(s);
  assert.equal(events.map((e) => e.event), ['start', 'answer', 'answer', 'answer', 'answer', 'summary']);
  assert.equal(events.slice(1, 5).map((e) => e.data.resolver), ['a', 'a', 'b', 'b']);
  assert.equal(new Set(events.slice(1, 3).map((e) => e.data.type)), new Set(['A', 'TXT']));
  assert.equal(events[0]!.data, { domain: 'stream.test', types: ['A', 'TXT'], timeoutMs: 3000, resolvers: [{ id: 'a', address: '127.0.0.31' }, { id: 'b', address: '127.0.0.32' }] });
  const summary = events[5]!.data;
  assertMatchesSchema('DnsResult', summary);
  for (const answer of events.slice(1, 5)) {
    const report = summary.resolvers.find((r: any) => r.id === answer.data.resolver);
    assert.is(answer.data.address, report.address);
    assert.equal(answer.data.query, report.queries[answer.data.type]);
  }
});

test('SSE: a dns stream is framed exactly, its summary has the JSON answer fields', async ({ server }) => {
  const s = await postStream(server.base, '/api/tools/dns', ASK, 'text/event-stream');
  await s.ended;
  const { events } = parseSse(s);
  assert.equal(events.map((e) => e.event), ['start', 'answer', 'answer', 'answer', 'answer', 'summary']);
  const json = (await postJson(server.base, '/api/tools/dns', ASK)).json();
  const summary = events[5]!.data;
  assert.equal(Object.keys(summary), Object.keys(json));
  assert.equal(summary.records, json.records);
  assert.is(summary.consistent, json.consistent);
});

test('every resolver refusing: the stream started ends with an upstream-failed problem event, never a summary', async ({ server }) => {
  // Knot refuses a name outside its zones; the start was sent once the budgets took the queries.
  const s = await postStream(server.base, '/api/tools/dns', { ...ASK, domain: 'x.elsewhere.test' }, 'application/x-ndjson');
  await s.ended;
  const events = parseNdjson(s);
  assert.equal(events.map((e) => e.event), ['start', 'answer', 'answer', 'answer', 'answer', 'problem']);
  assert.ok(events.slice(1, 5).every((e) => e.data.query.rcode === 'REFUSED'));
  const problem = events[5]!.data;
  assertMatchesSchema('Problem', problem);
  assert.equal([problem.status, problem.code], [502, 'upstream-failed']);
  assert.is(problem.detail, 'no resolver answered any query for x.elsewhere.test: a REFUSED, b REFUSED');
  assert.equal(problem.resolvers.map((r: any) => r.id), ['a', 'b']);
});

test('a request naming an unknown resolver is an ordinary 400 problem', async ({ server }) => {
  assertProblem(await postJson(server.base, '/api/tools/dns', { ...ASK, resolvers: ['nope'] }, { accept: 'application/x-ndjson' }), 400, 'validation-failed');
});

test.run();
