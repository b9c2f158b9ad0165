import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from '../support/http';
import { assertProblem } from '../support/problem';
import { startServer, type RunningServer } from '../support/server';

const test = suite<{ server: RunningServer }>('routing');

test.before(async (ctx) => {
  ctx.server = await startServer();
});
test.after(async (ctx) => {
  await ctx.server.stop();
});

test('unknown path answers 404 not-found problem', async ({ server }) => {
  assertProblem(await request(server.base, '/nope'), 404, 'not-found');
});

test('versioned path is unknown: paths carry no version segment', async ({ server }) => {
  assertProblem(await request(server.base, '/v1/api/tools/ping', { method: 'POST' }), 404, 'not-found');
});

test('known path with another method answers 405 with Allow', async ({ server }) => {
  const reply = await request(server.base, '/api/tools/ping', { method: 'GET' });
  assertProblem(reply, 405, 'method-not-allowed');
  assert.is(reply.headers['allow'], 'POST, OPTIONS');
});

test('POST on /health answers 405 with Allow GET, HEAD', async ({ server }) => {
  const reply = await request(server.base, '/health', { method: 'POST' });
  assertProblem(reply, 405, 'method-not-allowed');
  assert.is(reply.headers['allow'], 'GET, HEAD');
});

test('GET /health answers 200 {"status":"ok"}', async ({ server }) => {
  const reply = await request(server.base, '/health');
  assert.is(reply.status, 200);
  assert.is(reply.headers['content-type'], 'application/json');
  assert.equal(reply.json(), { status: 'ok' });
});

test('HEAD /health answers the GET headers without a body', async ({ server }) => {
  const reply = await request(server.base, '/health', { method: 'HEAD' });
  assert.is(reply.status, 200);
  assert.is(reply.headers['content-length'], String(JSON.stringify({ status: 'ok' }).length));
  assert.is(reply.text, '');
});

test('GET /openapi.json serves the document', async ({ server }) => {
  const reply = await request(server.base, '/openapi.json');
  assert.is(reply.status, 200);
  assert.is(reply.json().openapi, '3.1.0');
});

test.run();
