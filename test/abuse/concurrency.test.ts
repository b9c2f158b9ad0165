import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postJson } from '../support/http';
import { assertProblem } from '../support/problem';
import { holdRequest, type HeldRequest } from '../support/raw-http';
import { startServer } from '../support/server';
import { waitFor } from '../support/wait';

const PING = '/api/tools/ping';

function parse(raw: string): { status: number; headers: Record<string, string> } {
  const [head] = raw.split('\r\n\r\n');
  const [statusLine, ...lines] = (head ?? '').split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine?.split(' ')[1]), headers };
}

test('a client over its in-flight cap gets 429 too-many-concurrent, with rate-limit headers', async () => {
  const server = await startServer({ NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '2' });
  const held: HeldRequest[] = [];
  try {
    held.push(await holdRequest(server.port, { seen: () => server.app.inFlight() === 1 }), await holdRequest(server.port, { seen: () => server.app.inFlight() === 2 }));
    const reply = await postJson(server.base, PING, { host: 'bad host' });
    assertProblem(reply, 429, 'too-many-concurrent');
    assert.is(reply.headers['x-ratelimit-limit'], '30');
    assert.is(reply.headers['x-ratelimit-remaining'], '28'); // the refusal cost no token
  } finally {
    for (const h of held) h.socket.destroy();
    await server.stop();
  }
});

test('a finished request frees its slot', async () => {
  const server = await startServer({ NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '1' });
  try {
    const h = await holdRequest(server.port, { seen: () => server.app.inFlight() === 1 });
    assert.is((await postJson(server.base, PING, { host: 'bad host' })).status, 429);
    h.finish();
    assert.is(parse(await h.response).status, 400);
    h.socket.destroy();
    assert.is((await postJson(server.base, PING, { host: 'bad host' })).status, 400);
  } finally {
    await server.stop();
  }
});

test('a client that disconnects frees its slot', async () => {
  const server = await startServer({ NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '1' });
  try {
    const h = await holdRequest(server.port, { seen: () => server.app.inFlight() === 1 });
    h.socket.destroy();
    await waitFor('the slot of the gone client released', () => server.app.inFlight() === 0);
    assert.is((await postJson(server.base, PING, { host: 'bad host' })).status, 400);
  } finally {
    await server.stop();
  }
});

test('the server-wide cap answers 503 overloaded with Retry-After', async () => {
  const server = await startServer({ NETTOOLS_MAX_IN_FLIGHT: '2' });
  const held: HeldRequest[] = [];
  try {
    held.push(
      await holdRequest(server.port, { localAddress: '127.0.0.2', seen: () => server.app.inFlight() === 1 }),
      await holdRequest(server.port, { localAddress: '127.0.0.3', seen: () => server.app.inFlight() === 2 }),
    );
    const reply = await postJson(server.base, PING, { host: 'bad host' });
    assertProblem(reply, 503, 'overloaded');
    assert.ok(Number(reply.headers['retry-after']) >= 1);
  } finally {
    for (const h of held) h.socket.destroy();
    await server.stop();
  }
});

test('a body that never ends is answered 408 at the deadline and frees the slot', async () => {
  const server = await startServer({ NETTOOLS_BODY_TIMEOUT_MS: '200', NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '1' });
  try {
    const h = await holdRequest(server.port);
    const raw = await h.response;
    assert.is(parse(raw).status, 408);
    assert.match(raw, /request-timeout/);
    assert.is((await postJson(server.base, PING, { host: 'bad host' })).status, 400);
  } finally {
    await server.stop();
  }
});

test.run();
