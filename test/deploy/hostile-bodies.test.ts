import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, type ChildServer } from '../support/child-server';
import { postJson, request } from '../support/http';
import { startFrontDoor } from '../support/nginx';
import { exchangeTls } from '../support/raw-http';
import { startRedis } from '../support/redis';

// The bodies that once ended the process (ajv's uniqueItems called the client's own valueOf), in every
// shape nettools is deployed in: each is a 400, and the process is still there to answer the next one.
const HOSTILE = [
  '{"domain":"a.test","types":[{},{"valueOf":1}]}',
  '{"domain":"a.test","types":[{},{"toString":1}]}',
  '{"domain":"a.test","resolvers":[{},{"valueOf":1}]}',
  '{"domain":"a.test","types":[[{"valueOf":1}],[{}]]}',
  '{"domain":"a.test","types":[{"hasOwnProperty":1},{"constructor":1},{"__proto__":{"valueOf":1}}]}',
];

const test = suite('hostile bodies in every deployment shape');

async function direct(server: ChildServer): Promise<void> {
  for (const body of HOSTILE) {
    const reply = await postJson(server.base, '/api/tools/dns', body);
    assert.is(reply.status, 400, body);
    assert.is(reply.json().code, 'validation-failed', body);
  }
  assert.is((await request(server.base, '/health')).status, 200);
  assert.is(server.child.exitCode, null);
}

async function stop(server: ChildServer): Promise<void> {
  server.child.kill('SIGTERM');
  const { code } = await server.exited;
  assert.is(code, 0, 'the server stopped cleanly, not from a crash');
}

test('one thread: each is a 400, and the server serves on', async () => {
  const server = await spawnServer({ NETTOOLS_RATE_LIMIT: '1000/1s' });
  try {
    await direct(server);
  } finally {
    await stop(server);
  }
});

test('two worker threads: each is a 400, and the server serves on', async () => {
  const server = await spawnServer({ NETTOOLS_WORKERS: '2', NETTOOLS_RATE_LIMIT: '1000/1s' });
  try {
    // Enough requests that both workers see some.
    for (let i = 0; i < 4; i++) await direct(server);
  } finally {
    await stop(server);
  }
});

test('buckets in Redis (the body is read while the store decides): each is a 400, and the server serves on', async () => {
  const redis = await startRedis();
  const server = await spawnServer({ NETTOOLS_REDIS_URL: redis.url, NETTOOLS_REDIS_FAILURE: 'closed', NETTOOLS_RATE_LIMIT: '1000/1s' });
  try {
    await direct(server);
  } finally {
    await stop(server);
    await redis.stop();
  }
});

test('behind nginx: each is a 400 from nettools, and the server serves on', async () => {
  const front = await startFrontDoor({ NETTOOLS_RATE_LIMIT: '1000/1s' });
  try {
    for (const body of HOSTILE) {
      const raw = `POST /api/tools/dns HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
      const answer = await exchangeTls(front.nginx.port, raw, { waitMs: 10_000 });
      assert.match(answer, /^HTTP\/1\.1 400 /, body);
      assert.match(answer, /"code":"validation-failed"/, body);
    }
    assert.is((await request(front.server.base, '/health')).status, 200);
    assert.is(front.server.child.exitCode, null);
  } finally {
    await front.stop();
  }
});

test.run();
