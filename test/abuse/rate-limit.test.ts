import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postJson, request, type Reply } from '../support/http';
import { assertProblem } from '../support/problem';
import { startServer } from '../support/server';
import { sleep } from '../support/wait';

const PING = '/api/tools/ping';
const bad = { host: 'bad host' }; // a cheap request that still counts against the budget

function fromAddress(base: string, localAddress: string, headers: Record<string, string> = {}): Promise<Reply> {
  return request(base, PING, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(bad),
    localAddress,
  });
}

test('a burst past the limit gets 429 rate-limited with the rate-limit headers and Retry-After', async () => {
  const server = await startServer({ NETTOOLS_RATE_LIMIT: '3/60s' });
  try {
    const replies: Reply[] = [];
    for (let i = 0; i < 4; i++) replies.push(await postJson(server.base, PING, bad));
    assert.equal(replies.map((r) => r.status), [400, 400, 400, 429]);
    assert.equal(replies.map((r) => r.headers['x-ratelimit-remaining']), ['2', '1', '0', '0']);
    const refused = replies[3] as Reply;
    assertProblem(refused, 429, 'rate-limited');
    assert.is(refused.headers['ratelimit-policy'], '"default";q=3;w=60');
    assert.match(String(refused.headers['ratelimit']), /^"default";r=0;t=\d+$/);
    assert.is(refused.headers['x-ratelimit-limit'], '3');
    assert.is(refused.headers['retry-after'], '20');
    assert.ok(Number(refused.headers['x-ratelimit-reset']) > Date.now() / 1000);
  } finally {
    await server.stop();
  }
});

test('a client that waits Retry-After seconds is let in', async () => {
  // A token every 2 s: the third request comes well inside that even on a loaded machine.
  const server = await startServer({ NETTOOLS_RATE_LIMIT: '2/4s' });
  try {
    await postJson(server.base, PING, bad);
    await postJson(server.base, PING, bad);
    const refused = await postJson(server.base, PING, bad);
    assert.is(refused.status, 429);
    const wait = Number(refused.headers['retry-after']);
    assert.ok(wait >= 1);
    await sleep(wait * 1000); // the point of the test: waiting exactly what Retry-After says
    assert.is((await postJson(server.base, PING, bad)).status, 400);
  } finally {
    await server.stop();
  }
});

test('two clients do not share a budget', async () => {
  const server = await startServer({ NETTOOLS_RATE_LIMIT: '1/60s' });
  try {
    assert.is((await fromAddress(server.base, '127.0.0.2')).status, 400);
    assert.is((await fromAddress(server.base, '127.0.0.2')).status, 429);
    assert.is((await fromAddress(server.base, '127.0.0.3')).status, 400);
  } finally {
    await server.stop();
  }
});

test('/health and /openapi.json are not rate limited', async () => {
  const server = await startServer({ NETTOOLS_RATE_LIMIT: '1/60s' });
  try {
    for (let i = 0; i < 5; i++) assert.is((await request(server.base, '/health')).status, 200);
    assert.is((await postJson(server.base, PING, bad)).status, 400);
    assert.is((await postJson(server.base, PING, bad)).status, 429);
    assert.is((await request(server.base, '/health')).status, 200);
  } finally {
    await server.stop();
  }
});

test('a spoofed X-Forwarded-For from an untrusted peer changes nothing', async () => {
  const server = await startServer({ NETTOOLS_RATE_LIMIT: '1/60s' });
  try {
    assert.is((await postJson(server.base, PING, bad, { 'x-forwarded-for': '198.51.100.1' })).status, 400);
    assert.is((await postJson(server.base, PING, bad, { 'x-forwarded-for': '198.51.100.2' })).status, 429);
  } finally {
    await server.stop();
  }
});

test('behind a trusted proxy, X-Forwarded-For names the client', async () => {
  const server = await startServer({ NETTOOLS_RATE_LIMIT: '1/60s', NETTOOLS_TRUST_PROXY: '127.0.0.0/8' });
  try {
    assert.is((await postJson(server.base, PING, bad, { 'x-forwarded-for': '198.51.100.1' })).status, 400);
    assert.is((await postJson(server.base, PING, bad, { 'x-forwarded-for': '198.51.100.1' })).status, 429);
    assert.is((await postJson(server.base, PING, bad, { 'x-forwarded-for': '198.51.100.2' })).status, 400);
    // The right-most untrusted entry is the client; what the client wrote to its left is ignored.
    assert.is((await postJson(server.base, PING, bad, { 'x-forwarded-for': '203.0.113.9, 198.51.100.1' })).status, 429);
  } finally {
    await server.stop();
  }
});

test('two IPv6 clients in one /64 share a budget, another /64 does not', async () => {
  const server = await startServer({ NETTOOLS_RATE_LIMIT: '1/60s', NETTOOLS_TRUST_PROXY: '127.0.0.1' });
  try {
    assert.is((await postJson(server.base, PING, bad, { 'x-forwarded-for': '2001:db8:1:2::1' })).status, 400);
    assert.is((await postJson(server.base, PING, bad, { 'x-forwarded-for': '2001:db8:1:2:ffff::9' })).status, 429);
    assert.is((await postJson(server.base, PING, bad, { 'x-forwarded-for': '2001:db8:1:3::1' })).status, 400);
  } finally {
    await server.stop();
  }
});

test('garbage in X-Forwarded-For neither crashes nor bypasses the limit', async () => {
  const server = await startServer({ NETTOOLS_RATE_LIMIT: '1/60s', NETTOOLS_TRUST_PROXY: '127.0.0.1' });
  try {
    assert.is((await postJson(server.base, PING, bad, { 'x-forwarded-for': 'not-an-ip' })).status, 400);
    for (const junk of ['', ',,,', 'unknown', '1.2.3.4.5', '[::1', 'x'.repeat(5000), '999.1.1.1, not-an-ip']) {
      assert.is((await postJson(server.base, PING, bad, { 'x-forwarded-for': junk })).status, 429, JSON.stringify(junk.slice(0, 20)));
    }
  } finally {
    await server.stop();
  }
});

test.run();
