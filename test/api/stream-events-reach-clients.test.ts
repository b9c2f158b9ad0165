import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STREAM_LIMITS } from '../../src/http/stream-writer';
import { startServer, type RunningServer } from '../support/server';
import { waitFor } from '../support/wait';
import { startClient, type ClientName, type Mode } from './stream-clients';

// Every streamed event must be a whole HTTP chunk on the wire the moment it is written: a client that
// hands on a chunk only once its closing CRLF is in (urllib3, so Python's requests) must not get each
// event only with the next one. Checked with such a reader on a plain socket, with urllib3 itself, and
// with curl and Node's fetch (which read inside a chunk), for NDJSON and SSE, on 127.0.0.1 only.
const test = suite<{ server: RunningServer; keepAliveMs: number }>('streamed events reach every client when they are written');

test.before(async (ctx) => {
  // An SSE keep-alive comment is a write too, and would complete a waiting chunk: none while a test waits.
  ctx.keepAliveMs = STREAM_LIMITS.keepAliveMs;
  STREAM_LIMITS.keepAliveMs = 600_000;
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s' });
});

test.after(async (ctx) => {
  STREAM_LIMITS.keepAliveMs = ctx.keepAliveMs;
  await ctx.server?.stop();
});

const CLIENTS: ClientName[] = ['chunk reader', 'urllib3', 'curl', 'fetch'];
const MODES: Mode[] = ['ndjson', 'sse'];

// Reply 1 is due a minute after reply 0, and nothing is written in between: a client that has reply 0
// before then has it because it was whole when written, not because the next write completed it.
const SLOW = { host: '127.0.0.1', count: 2, intervalMs: 60_000 };
const QUICK = { host: '127.0.0.1', count: 3, intervalMs: 100 };

for (const name of CLIENTS) {
  for (const mode of MODES) {
    test(`${name}, ${mode}: start and reply 0 reach the client while reply 1 is still a minute away`, async ({ server }) => {
      const client = startClient(name, server.port, '/api/tools/ping', SLOW, mode);
      try {
        await waitFor('reply 0 at the client', () => client.events().some((e) => e.event === 'reply'), { timeoutMs: 30_000 });
        const events = client.events();
        assert.equal(events.map((e) => e.event), ['start', 'reply']);
        assert.is(events[1]!.data.seq, 0);
      } finally {
        client.stop();
      }
      await waitFor('the server to stop the ping', () => server.app.inFlight() === 0);
    });

    test(`${name}, ${mode}: a whole stream reads as its events and ends right after the summary`, async ({ server }) => {
      const client = startClient(name, server.port, '/api/tools/ping', QUICK, mode);
      const end = await client.finished;
      assert.ok(end.complete, `${name} did not read the response to its end`);
      assert.is(end.rest, '');
      assert.equal(client.events().map((e) => e.event), ['start', 'reply', 'reply', 'reply', 'summary']);
    });
  }
}

test.run();
