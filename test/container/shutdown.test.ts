import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseNdjson, postStream } from '../api/stream-reader';
import { ensureImage, NET_RAW_ONLY, podman, runNettools } from '../support/podman';
import { waitFor } from '../support/wait';

// `podman stop` sends the image's STOPSIGNAL (SIGTERM) to nettools, which is the container's first
// process: it drains as on a host (CONTRACT "Streamed results"), so an open stream ends with a
// shutting-down problem event and the container exits 0, well before podman's own 10 s kill.
const test = suite('SIGTERM in the container');

test.before(ensureImage);

test('podman stop with a stream open ends it with a shutting-down problem event, and the container exits 0', async () => {
  const server = await runNettools({ podmanArgs: [...NET_RAW_ONLY], env: { NETTOOLS_SHUTDOWN_GRACE_MS: '60000' } });
  try {
    const stream = await postStream(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 600, intervalMs: 100 }, 'application/x-ndjson');
    await waitFor('a reply on the stream', () => stream.text().includes('"event":"reply"'), { everyMs: 20 });
    const started = Date.now();
    const stop = await podman(['stop', '--time', '30', server.name]);
    assert.is(stop.code, 0, stop.stderr);
    await stream.ended;
    const last = parseNdjson(stream).at(-1)!;
    assert.is(last.event, 'problem');
    assert.is(last.data.code, 'shutting-down');
    assert.is(await server.exited, 0);
    assert.ok(Date.now() - started < 10_000, `stopping took ${Date.now() - started} ms`);
    const stopped = server.logs.map((l) => JSON.parse(l)).find((e) => e.msg === 'stopped');
    assert.is(stopped?.unfinished, 0, server.logs.join('\n'));
  } finally {
    await server.remove();
  }
});

test.run();
