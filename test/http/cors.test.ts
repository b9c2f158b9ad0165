import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { postJson, request } from '../support/http';
import { startServer } from '../support/server';

const test = suite('cors');

test('OPTIONS on a tool path answers a CORS preflight', async () => {
  const server = await startServer();
  try {
    const reply = await request(server.base, '/api/tools/dns', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    assert.is(reply.status, 204);
    assert.is(reply.headers['access-control-allow-origin'], '*');
    assert.is(reply.headers['access-control-allow-methods'], 'POST, OPTIONS');
    assert.match(String(reply.headers['access-control-allow-headers']), /content-type/i);
  } finally {
    await server.stop();
  }
});

test('tool responses, errors included, carry Access-Control-Allow-Origin', async () => {
  const server = await startServer();
  try {
    const reply = await postJson(server.base, '/api/tools/ping', { nope: 1 });
    assert.is(reply.headers['access-control-allow-origin'], '*');
  } finally {
    await server.stop();
  }
});

test('a cross-origin request is told which rate-limit headers it may read', async () => {
  const server = await startServer();
  try {
    const reply = await postJson(server.base, '/api/tools/ping', { nope: 1 }, { origin: 'https://app.example' });
    assert.match(String(reply.headers['access-control-expose-headers']), 'Retry-After');
    assert.match(String(reply.headers['access-control-expose-headers']), 'X-RateLimit-Remaining');
    const sameOrigin = await postJson(server.base, '/api/tools/ping', { nope: 1 });
    assert.is(sameOrigin.headers['access-control-expose-headers'], undefined);
  } finally {
    await server.stop();
  }
});

test('the allowed origin is configurable', async () => {
  const server = await startServer({ NETTOOLS_CORS_ORIGIN: 'https://app.example' });
  try {
    const reply = await postJson(server.base, '/api/tools/dns', {});
    assert.is(reply.headers['access-control-allow-origin'], 'https://app.example');
    assert.is(reply.headers['vary'], 'Origin');
  } finally {
    await server.stop();
  }
});

test.run();
