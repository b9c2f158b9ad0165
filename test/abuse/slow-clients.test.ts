import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postJson } from '../support/http';
import { startServer } from '../support/server';
import { waitFor } from '../support/wait';

test('a client that disconnects mid-ping stops the measurement and frees its slot', async () => {
  const server = await startServer({ NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '1' });
  try {
    const body = JSON.stringify({ host: '127.0.0.1', count: 10, intervalMs: 1000 });
    const socket = net.connect(server.port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((r) => socket.on('connect', () => r()));
    socket.write(`POST /api/tools/ping HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    await waitFor('the ping started', () => server.app.inFlight() === 1);
    socket.destroy();
    // Ten echoes a second apart would take ten seconds; the abort must end it long before.
    await waitFor('the request released', () => server.app.inFlight() === 0, { timeoutMs: 2000 });
    const next = await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 });
    assert.is(next.status, 200, 'the slot is free for the next request');
  } finally {
    await server.stop();
  }
});

test('a client trickling its request headers is cut off by the server', async () => {
  const server = await startServer();
  try {
    const socket = net.connect(server.port, '127.0.0.1');
    socket.on('error', () => {});
    const header = 'POST /api/tools/ping HTTP/1.1\r\nHost: ' + 'x'.repeat(100);
    let sent = 0;
    const drip = setInterval(() => socket.writable && socket.write(header[sent++ % header.length] as string), 500);
    const closed = await new Promise<boolean>((resolve) => {
      const limit = setTimeout(() => resolve(false), 20_000);
      socket.on('close', () => (clearTimeout(limit), resolve(true)));
    });
    clearInterval(drip);
    socket.destroy();
    assert.ok(closed, 'the server closed a connection whose headers never completed');
    assert.is(server.app.inFlight(), 0);
  } finally {
    await server.stop();
  }
});

test.run();
