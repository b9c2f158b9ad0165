import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, type ChildServer } from '../support/child-server';
import { postJson, request } from '../support/http';
import { assertProblem } from '../support/problem';
import { parsePromText, sampleValue } from '../support/prom-text';
import { waitFor } from '../support/wait';

// A request whose body is still arriving is in flight as far as the server knows.
function openRequest(port: number, body: string, sent: number): Promise<{ socket: net.Socket; response: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /api/tools/ping HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
          body.slice(0, sent),
      );
      let data = '';
      const response = new Promise<string>((done) => {
        socket.on('data', (c) => (data += c.toString()));
        socket.on('close', () => done(data));
      });
      resolve({ socket, response });
    });
    socket.on('error', reject);
  });
}

// Whether the server has the open request in flight (the scrape that asks counts itself too).
async function inFlight(server: ChildServer): Promise<boolean> {
  return sampleValue(parsePromText((await request(server.base, '/metrics')).text), 'nettools_http_requests_in_flight') >= 2;
}

const stopping = (server: ChildServer) => server.logs.some((l) => JSON.parse(l).msg === 'stopping');

test('SIGTERM lets an in-flight request finish, then exits 0', async () => {
  const server = await spawnServer();
  const body = JSON.stringify({ host: 'bad host' });
  const { socket, response } = await openRequest(server.port, body, 5);
  await waitFor('the open request in flight', () => inFlight(server));
  server.child.kill('SIGTERM');
  await waitFor('the server stopping', () => stopping(server));
  socket.write(body.slice(5));
  const text = await response;
  assert.match(text, /^HTTP\/1\.1 400 /);
  assert.match(text, /validation-failed/);
  assert.equal(await server.exited, { code: 0, signal: null });
  const stopped = JSON.parse(server.logs.find((l) => l.includes('"stopped"')) as string);
  assert.is(stopped.unfinished, 0);
});

test('SIGTERM stops accepting new connections at once', async () => {
  const server = await spawnServer();
  const { socket } = await openRequest(server.port, '{"host":"x"}', 2);
  server.child.kill('SIGTERM');
  const connectRefused = () =>
    new Promise<boolean>((resolve) => {
      const probe = net.connect(server.port, '127.0.0.1');
      probe.on('connect', () => (probe.destroy(), resolve(false)));
      probe.on('error', () => resolve(true));
    });
  // The signal takes a moment on a loaded machine: ask again until refused.
  await waitFor('new connections refused', connectRefused, { everyMs: 20 });
  socket.destroy();
  assert.is((await server.exited).code, 0);
});

test('a request that never finishes is cut off after the grace period and the server exits 0', async () => {
  const server = await spawnServer({ NETTOOLS_SHUTDOWN_GRACE_MS: '200' });
  const { socket } = await openRequest(server.port, '{"host":"127.0.0.1"}', 3);
  await waitFor('the open request in flight', () => inFlight(server));
  server.child.kill('SIGTERM');
  assert.is((await server.exited).code, 0);
  const stopped = JSON.parse(server.logs.find((l) => l.includes('"stopped"')) as string);
  assert.is(stopped.unfinished, 1);
  socket.destroy();
});

// A worker thread ends only once its last connection closes: a request left open past the grace kept
// one, and so the process, alive for ever (a request a bug left waiting did that once).
for (const workers of [1, 2]) {
  test(`with ${workers} worker thread${workers > 1 ? 's' : ''}: a measurement still running when the grace ends is answered 503 shutting-down and the server exits 0`, async () => {
    const server = await spawnServer({ NETTOOLS_SHUTDOWN_GRACE_MS: '300', NETTOOLS_WORKERS: String(workers), NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
    try {
      const reply = postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 10, intervalMs: 1000 });
      await waitFor('the ping in flight', () => inFlight(server));
      server.child.kill('SIGTERM');
      const answered = await reply;
      assertProblem(answered, 503, 'shutting-down');
      assert.equal(await server.exited, { code: 0, signal: null });
    } finally {
      server.child.kill('SIGKILL');
    }
    const stopped = JSON.parse(server.logs.find((l) => l.includes('"stopped"')) as string);
    assert.is(stopped.unfinished, 1);
  });
}

test.run();
