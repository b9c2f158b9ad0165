import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { sniffEchoes } from '../support/echo-sniffer';
import { postJson, request } from '../support/http';
import { assertProblem } from '../support/problem';
import { parsePromText, sampleValue } from '../support/prom-text';
import { startServer, type RunningServer } from '../support/server';
import { sleep, waitFor } from '../support/wait';
import { parseNdjson, parseSse, postStream } from './stream-reader';

// Streamed ping (CONTRACT "Streamed results"), on 127.0.0.1 only. No resolver is asked: the hosts are IPs.
const test = suite<{ open: RunningServer; guarded: RunningServer }>('POST /api/tools/ping, streamed');

const NDJSON = 'application/x-ndjson';
const SSE = 'text/event-stream';

test.before(async (ctx) => {
  ctx.open = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s' });
  ctx.guarded = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_RATE_LIMIT: '1000/1s' });
});

test.after(async (ctx) => {
  await ctx.open?.stop();
  await ctx.guarded?.stop();
});

const PING = { host: '127.0.0.1', count: 2, intervalMs: 100 };

async function contentType(server: RunningServer, accept: string | null): Promise<string | undefined> {
  const reply = await postJson(server.base, '/api/tools/ping', PING, accept === null ? {} : { accept });
  assert.is(reply.status, 200, reply.text);
  return reply.headers['content-type'];
}

test('no Accept, */*, application/json and an unrelated type answer JSON', async ({ open }) => {
  for (const accept of [null, '*/*', 'application/json', 'text/html']) assert.is(await contentType(open, accept), 'application/json', String(accept));
});

test('application/x-ndjson and text/event-stream answer a stream', async ({ open }) => {
  assert.is(await contentType(open, NDJSON), NDJSON);
  assert.is(await contentType(open, SSE), 'text/event-stream; charset=utf-8');
});

test('q-values choose each form, a tie goes to JSON and q=0 refuses a type', async ({ open }) => {
  assert.is(await contentType(open, 'application/json;q=0.5, text/event-stream'), 'text/event-stream; charset=utf-8');
  assert.is(await contentType(open, 'application/x-ndjson;q=0.9, text/event-stream;q=0.5, application/json;q=0.1'), NDJSON);
  assert.is(await contentType(open, 'application/x-ndjson;q=0.5, application/json;q=0.8'), 'application/json');
  assert.is(await contentType(open, 'application/x-ndjson, application/json'), 'application/json');
  assert.is(await contentType(open, '*/*, application/json;q=0'), NDJSON);
});

test('a JSON answer is byte for byte the same whatever Accept leaves it JSON', async ({ open }) => {
  const bad = { host: '127.0.0.1', count: 99 };
  const plain = await postJson(open.base, '/api/tools/ping', bad);
  for (const accept of ['*/*', 'application/json', 'text/html', 'application/x-ndjson;q=0']) {
    const reply = await postJson(open.base, '/api/tools/ping', bad, { accept });
    assert.is(reply.text, plain.text, accept);
    assert.is(reply.headers['content-type'], plain.headers['content-type']);
  }
  const ok = await postJson(open.base, '/api/tools/ping', PING, { accept: '*/*' });
  assert.is(ok.headers['cache-control'], undefined);
  assert.is(ok.headers['x-accel-buffering'], undefined);
  assert.is(ok.headers['content-length'], String(Buffer.byteLength(ok.text)));
  assertMatchesSchema('PingResult', ok.json());
});

test('a stream carries no-store, no proxy buffering, the rate-limit fields and the request id', async ({ open }) => {
  const s = await postStream(open.base, '/api/tools/ping', PING, NDJSON);
  await s.ended;
  assert.is(s.status, 200);
  assert.is(s.headers['cache-control'], 'no-store');
  assert.is(s.headers['x-accel-buffering'], 'no');
  assert.ok(s.headers['ratelimit'] !== undefined && s.headers['ratelimit-policy'] !== undefined);
  assert.match(String(s.headers['x-request-id']), /^[0-9a-f-]{36}$/);
});

test('NDJSON: start, each reply as its echo is decided, about an interval apart, then the summary', async ({ open }) => {
  const s = await postStream(open.base, '/api/tools/ping', { host: '127.0.0.1', count: 5, intervalMs: 300 }, NDJSON);
  await s.ended;
  const events = parseNdjson(s);
  assert.equal(events.map((e) => e.event), ['start', 'reply', 'reply', 'reply', 'reply', 'reply', 'summary']);
  const replies = events.filter((e) => e.event === 'reply');
  assert.equal(replies.map((e) => e.data.seq), [0, 1, 2, 3, 4]);
  const summary = events[6]!;
  // Four intervals lie between the first echo and the last: the first reply came well before the summary.
  assert.ok(summary.at - replies[0]!.at > 600, `first reply ${summary.at - replies[0]!.at} ms before the summary`);
  assert.ok(replies[4]!.at - replies[0]!.at > 600, 'the replies came spread out, not together');
  assert.equal(summary.data.replies, replies.map((e) => e.data));
});

test('NDJSON start names the resolved address and the settings', async ({ open }) => {
  const s = await postStream(open.base, '/api/tools/ping', PING, NDJSON);
  await s.ended;
  const start = parseNdjson(s)[0]!;
  assert.is(start.event, 'start');
  assert.equal({ ...start.data, resolveMs: 0, startedAt: '' }, { host: '127.0.0.1', address: '127.0.0.1', ipVersion: 4, count: 2, intervalMs: 100, timeoutMs: 1000, size: 56, resolveMs: 0, startedAt: '' });
});

test('SSE: exact framing, ids counting from 1, and the summary last', async ({ open }) => {
  const s = await postStream(open.base, '/api/tools/ping', { host: '::1', count: 3, intervalMs: 100 }, SSE);
  await s.ended;
  const { events, comments } = parseSse(s);
  assert.is(comments, 0);
  assert.equal(events.map((e) => e.event), ['start', 'reply', 'reply', 'reply', 'summary']);
  assert.equal(events.map((e) => e.id), [1, 2, 3, 4, 5]);
  assert.is(events[0]!.data.address, '::1');
});

test('the summary is the JSON 200 body: the same fields, in the same order, and the schema', async ({ open }) => {
  const s = await postStream(open.base, '/api/tools/ping', PING, NDJSON);
  await s.ended;
  const summary = parseNdjson(s).at(-1)!;
  assertMatchesSchema('PingResult', summary.data);
  const json = (await postJson(open.base, '/api/tools/ping', PING)).json();
  assert.equal(Object.keys(summary.data), Object.keys(json));
  assert.equal(Object.keys(summary.data.packets), Object.keys(json.packets));
  assert.equal(Object.keys(summary.data.rtt), Object.keys(json.rtt));
  assert.equal({ ...summary.data.packets }, { ...json.packets });
});

test('a validation refusal before the start is an ordinary 400 problem', async ({ open }) => {
  const reply = await postJson(open.base, '/api/tools/ping', { host: '127.0.0.1', count: 0 }, { accept: NDJSON });
  assertProblem(reply, 400, 'validation-failed');
});

test('a forbidden target is an ordinary 422 problem, not a stream', async ({ guarded }) => {
  for (const accept of [NDJSON, SSE]) {
    const reply = await postJson(guarded.base, '/api/tools/ping', PING, { accept });
    assertProblem(reply, 422, 'target-forbidden');
  }
});

test('a client that goes away stops its ping at once: no further echo goes out and its slot is freed', async ({ open }) => {
  const sniffer = sniffEchoes();
  const { size } = sniffer;
  try {
    await sniffer.ready;
    const s = await postStream(open.base, '/api/tools/ping', { host: '127.0.0.1', count: 10, intervalMs: 300, size }, NDJSON);
    await waitFor('the first reply', async () => s.text().includes('"event":"reply"'), { everyMs: 10 });
    s.destroy();
    await waitFor('the server to free the request', async () => open.app.inFlight() === 0, { everyMs: 10 });
    const sent = await sniffer.settled();
    assert.ok(sent >= 1 && sent <= 2, `${sent} echoes before the client left`);
    await sleep(1000); // three more intervals: an unstopped ping would have sent three more
    assert.is(await sniffer.settled(), sent);
    const admitted = sampleValue(parsePromText((await request(open.base, '/metrics')).text), 'nettools_admitted_in_flight');
    assert.is(admitted, 0);
  } finally {
    sniffer.stop();
  }
});

test('stream metrics count the events sent and show no stream open once every one ended', async ({ open }) => {
  const read = async () => parsePromText((await request(open.base, '/metrics')).text);
  const before = sampleValue(await read(), 'nettools_stream_events_total', { tool: 'ping' });
  const s = await postStream(open.base, '/api/tools/ping', PING, SSE);
  await s.ended;
  const after = await read();
  assert.is(sampleValue(after, 'nettools_stream_events_total', { tool: 'ping' }), before + 4);
  assert.is(sampleValue(after, 'nettools_streams_open', { tool: 'ping' }), 0);
});

test.run();
