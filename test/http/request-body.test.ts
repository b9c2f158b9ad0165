import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { postJson, request } from '../support/http';
import { assertProblem } from '../support/problem';
import { startServer, type RunningServer } from '../support/server';
import { waitFor } from '../support/wait';

const test = suite<{ server: RunningServer }>('request body');

test.before(async (ctx) => {
  ctx.server = await startServer();
});
test.after(async (ctx) => {
  await ctx.server.stop();
});

const PING = '/api/tools/ping';

test('missing Content-Type answers 415', async ({ server }) => {
  assertProblem(await request(server.base, PING, { method: 'POST', body: '{"host":"127.0.0.1"}' }), 415, 'unsupported-media-type');
});

test('text/plain answers 415', async ({ server }) => {
  const reply = await request(server.base, PING, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
  assertProblem(reply, 415, 'unsupported-media-type');
});

test('a charset other than UTF-8 answers 415', async ({ server }) => {
  assertProblem(await postJson(server.base, PING, '{}', { 'content-type': 'application/json; charset=latin1' }), 415, 'unsupported-media-type');
});

test('application/json with charset=utf-8 is accepted', async ({ server }) => {
  const reply = await postJson(server.base, PING, '{}', { 'content-type': 'Application/JSON; charset=UTF-8' });
  assertProblem(reply, 400, 'validation-failed');
});

test('Content-Length over 4 KiB answers 413 without reading the body', async ({ server }) => {
  assertProblem(await postJson(server.base, PING, 'x'.repeat(4097)), 413, 'payload-too-large');
});

test('chunked body over 4 KiB answers 413', async ({ server }) => {
  const reply = await request(server.base, PING, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    body: 'x'.repeat(10_000),
  });
  assertProblem(reply, 413, 'payload-too-large');
});

test('a body of exactly 4 KiB is read whole', async ({ server }) => {
  const body = JSON.stringify({ host: 'a'.repeat(4096 - 11) });
  assert.is(body.length, 4096);
  const problem = assertProblem(await postJson(server.base, PING, body), 400, 'validation-failed');
  assert.equal(problem.errors[0].pointer, '/host');
});

test('malformed JSON answers 400 invalid-json', async ({ server }) => {
  assertProblem(await postJson(server.base, PING, '{"host":'), 400, 'invalid-json');
});

test('empty body answers 400 invalid-json', async ({ server }) => {
  assertProblem(await postJson(server.base, PING, ''), 400, 'invalid-json');
});

test('a JSON array answers 400 invalid-json', async ({ server }) => {
  assertProblem(await postJson(server.base, PING, '[{"host":"127.0.0.1"}]'), 400, 'invalid-json');
});

test('JSON null answers 400 invalid-json', async ({ server }) => {
  assertProblem(await postJson(server.base, PING, 'null'), 400, 'invalid-json');
});

test('invalid UTF-8 answers 400 invalid-json', async ({ server }) => {
  const body = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]);
  const reply = await request(server.base, PING, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  assertProblem(reply, 400, 'invalid-json');
});

test('a client that disconnects mid-body leaves no request in flight', async ({ server }) => {
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1', () => {
      socket.write(`POST ${PING} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"host":`);
      waitFor('the request in flight', () => server.app.inFlight() !== 0).then(() => socket.destroy(), reject);
    });
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
  await waitFor('no request in flight', () => server.app.inFlight() === 0);
  assert.is(server.app.inFlight(), 0);
  assert.is((await request(server.base, '/health')).status, 200);
});

test.run();
