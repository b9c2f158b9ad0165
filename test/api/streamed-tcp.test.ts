import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { postJson } from '../support/http';
import { startServer, type RunningServer } from '../support/server';
import { listenTcp, type TcpListener } from '../support/tcp-listener';
import { parseNdjson, parseSse, postStream } from './stream-reader';

// Streamed tcp checks (CONTRACT "Streamed results") against a loopback listener. No resolver is asked.
const test = suite<{ open: RunningServer; listener: TcpListener }>('POST /api/tools/tcp, streamed');

test.before(async (ctx) => {
  ctx.open = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s' });
  ctx.listener = await listenTcp('127.0.0.1');
});

test.after(async (ctx) => {
  await ctx.open?.stop();
  await ctx.listener?.stop();
});

test('NDJSON: start with the settings, one attempt event per attempt, then the summary with every result', async ({ open, listener }) => {
  const s = await postStream(open.base, '/api/tools/tcp', { host: '127.0.0.1', port: listener.port, count: 3, intervalMs: 200 }, 'application/x-ndjson');
  await s.ended;
  const events = parseNdjson(s);
  assert.equal(events.map((e) => e.event), ['start', 'attempt', 'attempt', 'attempt', 'summary']);
  const start = events[0]!.data;
  assert.equal([start.address, start.port, start.count, start.intervalMs, start.timeoutMs], ['127.0.0.1', listener.port, 3, 200, 2000]);
  const attempts = events.filter((e) => e.event === 'attempt').map((e) => e.data);
  assert.equal(attempts.map((a) => [a.seq, a.status]), [[0, 'connected'], [1, 'connected'], [2, 'connected']]);
  const summary = events.at(-1)!.data;
  assertMatchesSchema('TcpResult', summary);
  assert.equal(summary.results, attempts);
});

test('SSE carries the same events', async ({ open, listener }) => {
  const s = await postStream(open.base, '/api/tools/tcp', { host: '127.0.0.1', port: listener.port, count: 2, intervalMs: 200 }, 'text/event-stream');
  await s.ended;
  assert.equal(parseSse(s).events.map((e) => e.event), ['start', 'attempt', 'attempt', 'summary']);
});

test('a stream of more than 10 attempts ends with statistics over all of them and no results list', async ({ open, listener }) => {
  const s = await postStream(open.base, '/api/tools/tcp', { host: '127.0.0.1', port: listener.port, count: 12, intervalMs: 200 }, 'application/x-ndjson');
  await s.ended;
  const events = parseNdjson(s);
  assert.is(events.filter((e) => e.event === 'attempt').length, 12);
  const summary = events.at(-1)!;
  assert.is(summary.event, 'summary');
  assert.is(summary.data.results, undefined);
  assert.equal(summary.data.attempts, { sent: 12, connected: 12, lossPercent: 0 });
});

test('a JSON request keeps JSON bounds: 11 attempts are refused there, allowed streamed', async ({ open, listener }) => {
  const body = { host: '127.0.0.1', port: listener.port, count: 11, intervalMs: 200 };
  assert.is((await postJson(open.base, '/api/tools/tcp', body)).status, 400);
  const s = await postStream(open.base, '/api/tools/tcp', body, 'application/x-ndjson');
  assert.is(s.status, 200);
  s.destroy();
});

test.run();
