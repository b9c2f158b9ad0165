import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STREAM_LIMITS } from '../../src/http/stream-writer';
import { pingTool } from '../../src/tools/ping';
import { pingResultSchema } from '../../src/tools/ping/schema';
import type { Tool, ToolRunner } from '../../src/tools/tool';
import { parseNdjson, parseSse, postStream } from '../api/stream-reader';
import { postJson, request } from '../support/http';
import { parsePromText, sampleValue } from '../support/prom-text';
import { startServerWithTools, type RunningServer } from '../support/server';
import { sleep, waitFor } from '../support/wait';

// The streaming respond stage with tools made for each case: failures after the head, keep-alive, a
// reader that stops reading. The tool is picked by the request's host.
const test = suite<{ server: RunningServer }>('streamed responses: faults, keep-alive and slow readers');

const EXAMPLE = pingResultSchema.examples[0];
let cancelled = 0;

const BEHAVIOURS: Record<string, ToolRunner<any, any>['run']> = {
  'throws.test': async (_request, _cancel, events) => {
    events?.start({ case: 'throws' });
    throw new Error('injected after the start');
  },
  'fails.test': async (_request, _cancel, events) => {
    events?.start({ case: 'fails' });
    return { ok: false, failure: { code: 'engine-busy', detail: 'injected', retryAfterSeconds: 1 } };
  },
  'bad-event.test': async (_request, _cancel, events) => {
    events?.start({ case: 'bad-event' });
    events?.item('reply', { big: 1n }); // JSON.stringify throws on a BigInt
    return { ok: true, value: EXAMPLE };
  },
  'quiet.test': async (_request, _cancel, events) => {
    events?.start({ case: 'quiet' });
    await sleep(250);
    return { ok: true, value: EXAMPLE };
  },
  // Big events as fast as the loop allows, until the caller goes away.
  'flood.test': (_request, cancel, events) =>
    new Promise((resolve) => {
      events?.start({ case: 'flood' });
      const blob = 'x'.repeat(64 * 1024);
      const timer = setInterval(() => events?.item('reply', { blob }), 1);
      cancel.onAbort(() => {
        clearInterval(timer);
        cancelled++;
        resolve({ ok: false, failure: { code: 'aborted', detail: 'gone' } });
      });
    }),
};

const scripted: Tool<any, any> = {
  ...pingTool,
  open: () => ({ run: (request, cancel, events) => (BEHAVIOURS[request.host] as ToolRunner<any, any>['run'])(request, cancel, events), info: {}, close() {} }),
};

test.before(async (ctx) => {
  ctx.server = await startServerWithTools([scripted], { NETTOOLS_RATE_LIMIT: '10000/1s' });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
});

const stream = (server: RunningServer, host: string, accept = 'application/x-ndjson') => postStream(server.base, '/api/tools/ping', { host }, accept);

async function servesOn(server: RunningServer): Promise<void> {
  assert.is((await postJson(server.base, '/api/tools/ping', { host: 'fails.test' })).status, 503);
}

test('a tool that throws after the start ends the stream with one internal-error problem event', async ({ server }) => {
  const s = await stream(server, 'throws.test');
  await s.ended;
  const events = parseNdjson(s);
  assert.equal(events.map((e) => e.event), ['start', 'problem']);
  assert.is(events[1]!.data.code, 'internal-error');
  assert.is(events[1]!.data.status, 500);
  await servesOn(server);
});

test('a failure after the start is one problem event with its code, in RFC 9457 form', async ({ server }) => {
  const s = await stream(server, 'fails.test', 'text/event-stream');
  await s.ended;
  const { events } = parseSse(s);
  assert.equal(events.map((e) => e.event), ['start', 'problem']);
  const problem = events[1]!.data;
  assert.equal(Object.keys(problem), ['type', 'title', 'status', 'detail', 'code']);
  assert.is(problem.code, 'overloaded');
});

test('an event that cannot be written is the stream fault: a problem event, and the server serves on', async ({ server }) => {
  const s = await stream(server, 'bad-event.test');
  await s.ended;
  const events = parseNdjson(s);
  assert.equal(events.map((e) => e.event), ['start', 'problem']);
  assert.is(events[1]!.data.code, 'internal-error');
  await servesOn(server);
});

test('an SSE stream quiet for the keep-alive time gets a keep-alive comment', async ({ server }) => {
  const saved = STREAM_LIMITS.keepAliveMs;
  STREAM_LIMITS.keepAliveMs = 50;
  try {
    const s = await stream(server, 'quiet.test', 'text/event-stream');
    await s.ended;
    const { events, comments } = parseSse(s);
    assert.equal(events.map((e) => e.event), ['start', 'summary']);
    assert.ok(comments >= 2, `${comments} keep-alive comments`);
  } finally {
    STREAM_LIMITS.keepAliveMs = saved;
  }
});

test('NDJSON streams get no keep-alive comment', async ({ server }) => {
  const saved = STREAM_LIMITS.keepAliveMs;
  STREAM_LIMITS.keepAliveMs = 50;
  try {
    const s = await stream(server, 'quiet.test');
    await s.ended;
    assert.equal(parseNdjson(s).map((e) => e.event), ['start', 'summary']);
  } finally {
    STREAM_LIMITS.keepAliveMs = saved;
  }
});

// A client that asks for the flood and never reads: its socket, and whether it was closed.
function stalledReader(server: RunningServer): { socket: net.Socket; closed: () => boolean } {
  const socket = net.connect(server.port, '127.0.0.1');
  const body = JSON.stringify({ host: 'flood.test' });
  socket.write(`POST /api/tools/ping HTTP/1.1\r\nHost: x\r\nAccept: application/x-ndjson\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  socket.pause(); // and never read
  let closed = false;
  socket.on('close', () => (closed = true));
  socket.on('error', () => {});
  return { socket, closed: () => closed };
}

test('a reader that stops reading is cut off, counted, its measurement cancelled and its slot freed', async ({ server }) => {
  const read = async () => parsePromText((await request(server.base, '/metrics')).text);
  const cutBefore = sampleValue(await read(), 'nettools_streams_cut_off_total', { tool: 'ping' });
  const cancelledBefore = cancelled;
  const { socket, closed } = stalledReader(server);
  try {
    await waitFor('the flood to be cancelled', async () => cancelled > cancelledBefore, { timeoutMs: 20_000, everyMs: 20 });
    assert.is(sampleValue(await read(), 'nettools_streams_cut_off_total', { tool: 'ping' }), cutBefore + 1);
    await waitFor('the server to free the request', async () => server.app.inFlight() === 0, { everyMs: 10 });
    assert.is(sampleValue(await read(), 'nettools_streams_open', { tool: 'ping' }), 0);
    socket.resume();
    await waitFor('the connection to close', async () => closed(), { everyMs: 10 });
  } finally {
    socket.destroy();
  }
});

// Memory outside the JS heap, where uWS keeps what waits for a client: a stream cut off must leave none of it.
const nativeBytes = () => {
  const m = process.memoryUsage();
  return m.rss - m.heapTotal;
};

async function cutOffs(server: RunningServer, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const cancelledBefore = cancelled;
    const { socket } = stalledReader(server);
    await waitFor('the flood to be cut off', async () => cancelled > cancelledBefore, { timeoutMs: 20_000, everyMs: 10 });
    socket.destroy();
  }
  await waitFor('every slot freed', async () => server.app.inFlight() === 0, { everyMs: 10 });
}

test("readers cut off leave no memory behind: forty more cut-offs grow the memory outside the JS heap by less than a tenth of what they held", async ({ server }) => {
  // The first forty take the allocator and uWS's pools to their working size (about 3 MiB here); the next
  // forty added 0.1 MiB.
  await cutOffs(server, 40);
  const before = nativeBytes();
  await cutOffs(server, 40);
  const grown = nativeBytes() - before;

  // Each held at least STREAM_LIMITS.cutOffBytes when it was cut off: kept, forty would be 10 MiB or more.
  const held = 40 * STREAM_LIMITS.cutOffBytes;
  assert.ok(grown < held / 10, `${(grown / 2 ** 20).toFixed(1)} MiB more outside the heap after 40 cut-offs that held ${(held / 2 ** 20).toFixed(0)} MiB`);
});

test.run();
