import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseNdjson, parseSse, postStream } from '../api/stream-reader';
import { request } from '../support/http';
import { parsePromText, sampleValue } from '../support/prom-text';
import { startServer, type RunningServer } from '../support/server';
import { waitFor } from '../support/wait';

// A thousand streams at once (CONTRACT "Streamed results"): every one ends whole, in order, with its own
// summary, and the server holds nothing afterwards. 127.0.0.1 only; each stream is 3 echoes.
const test = suite<{ server: RunningServer }>('a thousand concurrent streams');

const STREAMS = 1000;
const PING = { host: '127.0.0.1', count: 3, intervalMs: 200 };

test.before(async (ctx) => {
  ctx.server = await startServer({
    NETTOOLS_RESOLVERS: 'none=127.0.0.1:9',
    NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true',
    NETTOOLS_RATE_LIMIT: '100000/1s',
    NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: String(2 * STREAMS),
    NETTOOLS_MAX_IN_FLIGHT: String(2 * STREAMS),
    NETTOOLS_TARGET_ECHOES_PER_SECOND: '100000',
    NETTOOLS_LOG_LEVEL: 'warn',
  });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
});

test('1,000 concurrent streamed pings (half NDJSON, half SSE) all end whole: start, three replies, the summary', async ({ server }) => {
  const streams = await Promise.all(
    Array.from({ length: STREAMS }, (_, i) => postStream(server.base, '/api/tools/ping', PING, i % 2 === 0 ? 'application/x-ndjson' : 'text/event-stream')),
  );
  await Promise.all(streams.map((s) => s.ended));
  const broken: string[] = [];
  streams.forEach((s, i) => {
    const events = i % 2 === 0 ? parseNdjson(s) : parseSse(s).events;
    const names = events.map((e) => e.event).join(',');
    const summary = events.at(-1)?.data;
    if (s.status !== 200 || names !== 'start,reply,reply,reply,summary' || summary?.packets?.sent !== 3) broken.push(`#${i}: ${s.status} ${names}`);
  });
  assert.equal(broken.slice(0, 5), [], `${broken.length} of ${STREAMS} streams broken`);
  const metrics = async () => parsePromText((await request(server.base, '/metrics')).text);
  await waitFor('every slot freed', async () => sampleValue(await metrics(), 'nettools_admitted_in_flight') === 0);
  assert.is(sampleValue(await metrics(), 'nettools_streams_open', { tool: 'ping' }), 0);
  assert.is(server.app.inFlight(), 0);
});

test.run();
