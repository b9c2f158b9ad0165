import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseNdjson, parseSse, postStream } from '../api/stream-reader';
import { spawnServer } from '../support/child-server';
import { waitFor } from '../support/wait';

// SIGTERM with streams open (CONTRACT "Streamed results"): each ends with a `shutting-down` problem event
// at once, inside the grace period, and the process exits 0 with nothing cut off. Pings go to 127.0.0.1 only.
const test = suite('SIGTERM with open streams');

const LONG_PING = { host: '127.0.0.1', count: 600, intervalMs: 100 };
const ENV = { NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_SHUTDOWN_GRACE_MS: '60000' };

for (const workers of ['1', '2']) {
  test(`NETTOOLS_WORKERS=${workers}: an open stream ends with one shutting-down problem event, and the server exits 0 with nothing unfinished`, async () => {
    const server = await spawnServer({ ...ENV, NETTOOLS_WORKERS: workers });
    try {
      const ndjson = await postStream(server.base, '/api/tools/ping', LONG_PING, 'application/x-ndjson');
      const sse = await postStream(server.base, '/api/tools/ping', LONG_PING, 'text/event-stream');
      await waitFor('a reply on both streams', async () => ndjson.text().includes('"event":"reply"') && sse.text().includes('event: reply'), { everyMs: 10 });
      server.child.kill('SIGTERM');
      await ndjson.ended;
      await sse.ended;
      const last = parseNdjson(ndjson).at(-1)!;
      assert.is(last.event, 'problem');
      assert.is(last.data.code, 'shutting-down');
      assert.is(last.data.status, 503);
      const lastSse = parseSse(sse).events.at(-1)!;
      assert.is(lastSse.event, 'problem');
      assert.is(lastSse.data.code, 'shutting-down');
      assert.equal(await server.exited, { code: 0, signal: null });
      const stopped = server.logs.map((l) => JSON.parse(l)).find((e) => e.msg === 'stopped');
      assert.is(stopped.unfinished, 0);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
}

test.run();
