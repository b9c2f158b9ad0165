import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Pinger } from '../../src/engines/icmp';
import { openPinger } from '../../src/engines/icmp/pinger';
import { parseAddress } from '../../src/net/address';
import { pingTool } from '../../src/tools/ping';
import { openPing } from '../../src/tools/ping/run';
import type { PingRequest, PingResult } from '../../src/tools/ping/types';
import type { Tool } from '../../src/tools/tool';
import { postJson } from '../support/http';
import { assertProblem } from '../support/problem';
import { startServerWithTools, type RunningServer } from '../support/server';
import { parseNdjson, postStream } from './stream-reader';

// Every ICMP sequence of the engine's socket in flight: a ping cannot start, and the caller hears the
// engine is busy (503 `engine-busy`), not an internal error. The real ping tool runs on an engine the test
// opened itself and fills first with a few long sessions to 127.0.0.1 (a session holds a sequence per echo
// for its whole life; one echo of each goes out, the rest would wait a minute).
const test = suite<{ server: RunningServer; engine: Pinger; held: Array<() => void> }>('ping with every sequence in flight');

const SEQUENCES = 65536;
const SESSION_MAX = 10000; // the engine's largest count (native/icmp/icmp_limits.h)

test.before(async (ctx) => {
  ctx.engine = openPinger();
  ctx.held = [];
  const address = parseAddress('127.0.0.1')!;
  for (let left = SEQUENCES; left > 0; left -= SESSION_MAX) {
    const count = Math.min(SESSION_MAX, left);
    ctx.held.push(
      ctx.engine.start({ address, count, intervalMs: 60000, timeoutMs: 60000, size: 0 }, (outcome) => {
        if (!outcome.ok) throw new Error(`holding ${count} sequences failed: ${outcome.error.message}`);
      }),
    );
  }
  const engine = ctx.engine;
  const ping: Tool<PingRequest, PingResult> = { ...pingTool, open: (deps) => openPing({ ...deps, icmp: { pinger: engine } }) };
  ctx.server = await startServerWithTools([ping], { NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s' });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  for (const stop of ctx.held ?? []) stop();
  ctx.engine?.close();
});

test('a JSON ping is refused 503 overloaded with Retry-After, saying why', async ({ server }) => {
  const reply = await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 2, intervalMs: 100 });
  const problem = assertProblem(reply, 503, 'overloaded');
  assert.match(problem.detail, /sequence/);
  assert.is(reply.headers['retry-after'], '1');
});

test('a long streamed ping ends with its problem event overloaded after the start', async ({ server }) => {
  const s = await postStream(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 20, intervalMs: 100 }, 'application/x-ndjson');
  await s.ended;
  assert.is(s.status, 200);
  const events = parseNdjson(s);
  assert.equal(events.map((e) => e.event), ['start', 'problem']);
  assert.is(events[1]!.data.code, 'overloaded');
  assert.is(events[1]!.data.status, 503);
});

test('the server is still whole: the sequences freed, a ping runs', async ({ server, held }) => {
  held.pop()!(); // the last session's sequences go back to the socket
  const reply = await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 });
  assert.is(reply.status, 200, reply.text);
  assert.is(reply.json().packets.received, 1);
});

test.run();
