import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChildServer } from '../support/child-server';
import { startFrontDoor, type FrontDoor } from '../support/nginx';
import { exchangeTls } from '../support/raw-http';
import { sleep, waitFor } from '../support/wait';

// The supported public deployment: deploy/nginx/nettools.conf in front of nettools, tried with the
// requests the bare uWS build gets wrong. Raw bytes over TLS, from chosen loopback addresses.
const test = suite<FrontDoor>('nginx in front');

test.before(async (ctx) => {
  Object.assign(ctx, await startFrontDoor({ NETTOOLS_RATE_LIMIT: '3/60s' }));
});

test.after(async (ctx) => {
  await ctx.stop?.();
});

// Every request here asks the server to close the connection, so this returns once it has answered.
const exchange = (port: number, raw: string | Buffer, localAddress?: string) => exchangeTls(port, raw, { localAddress });

const statuses = (answer: string) => [...answer.matchAll(/HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1]));
const seenPaths = (server: ChildServer) => server.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request').map((l) => l.path);

test('an HTTP/1.0 client gets an answer through nginx', async ({ nginx }) => {
  const answer = await exchange(nginx.port, 'GET /health HTTP/1.0\r\n\r\n');
  assert.equal(statuses(answer), [200]);
  assert.match(answer, '{"status":"ok"}');
});

test('an HTTP/1.1 client gets an answer through nginx', async ({ nginx }) => {
  const answer = await exchange(nginx.port, 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  assert.equal(statuses(answer), [200]);
});

test('two different Content-Length headers are refused and never reach nettools as a second request', async ({ nginx, server }) => {
  const body = '{"a":GET /smuggled-path HTTP/1.1\r\nHost: x\r\n\r\n';
  const answer = await exchange(nginx.port, `POST /api/tools/dns HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  assert.equal(statuses(answer), [400]);
  await sleep(200); // that nothing reaches nettools has no event to wait for: a pause past its logging lag
  assert.not.ok(seenPaths(server).includes('/smuggled-path'));
});

for (const te of ['xchunked', 'chunked, gzip']) {
  test(`Transfer-Encoding "${te}" is refused, and nothing is smuggled`, async ({ nginx, server }) => {
    const answer = await exchange(nginx.port, `POST /api/tools/dns HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: ${te}\r\n\r\n0\r\n\r\nGET /smuggled-te HTTP/1.1\r\nHost: x\r\n\r\n`);
    const first = statuses(answer)[0];
    assert.ok(first === 400 || first === 501, answer.slice(0, 200));
    await sleep(200); // that nothing reaches nettools has no event to wait for: a pause past its logging lag
    assert.not.ok(seenPaths(server).includes('/smuggled-te'));
  });
}

test("a chunked POST with chunk extensions gets nettools' own answer, and nothing is smuggled", async ({ nginx, server }) => {
  // Directly, uWS closes the connection on the first extension without a byte; nginx de-chunks.
  const body = '{"domain":"a b"}';
  const chunked = `${body.length.toString(16)};ext=1\r\n${body}\r\n0;ext=2\r\n\r\n`;
  const answer = await exchange(
    nginx.port,
    `POST /api/tools/dns HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nX-Request-Id: chunk-ext-1\r\nConnection: close\r\n\r\n${chunked}`,
    '127.0.0.41',
  );
  assert.equal(statuses(answer), [400]);
  // validation-failed, not invalid-json: nettools read the whole body, the extensions gone.
  assert.match(answer, '"code":"validation-failed"');
  assert.match(answer, '"pointer":"/domain"');
  const requestsFrom41 = () => server.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request' && l.client === '127.0.0.41');
  await waitFor('the request from 127.0.0.41 logged', () => requestsFrom41().length > 0);
  const seen = requestsFrom41();
  assert.equal(
    seen.map((l) => [l.requestId, l.method, l.path, l.status]),
    [['chunk-ext-1', 'POST', '/api/tools/dns', 400]],
  );
});

test('a GET pipelined behind a POST gets both answers', async ({ nginx }) => {
  const body = '{"domain":"a b"}';
  const answer = await exchange(
    nginx.port,
    `POST /api/tools/dns HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` + 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    '127.0.0.9',
  );
  assert.equal(statuses(answer), [400, 200]);
});

test("nettools limits the real client's address, whatever X-Forwarded-For the client sends", async ({ nginx, server }) => {
  const request = 'POST /api/tools/dns HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Forwarded-For: 203.0.113.9\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}';
  const answers = [];
  for (let i = 0; i < 4; i++) answers.push(statuses(await exchange(nginx.port, request, '127.0.0.21'))[0]);
  assert.equal(answers, [400, 400, 400, 429]);
  assert.equal(statuses(await exchange(nginx.port, request, '127.0.0.22')), [400]);
  const loggedClients = () => server.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request' && l.path === '/api/tools/dns').map((l) => l.client);
  await waitFor('the requests from 127.0.0.21 and 127.0.0.22 logged', () => loggedClients().includes('127.0.0.21') && loggedClients().includes('127.0.0.22'));
  const clients = loggedClients();
  assert.ok(clients.includes('127.0.0.21') && clients.includes('127.0.0.22'));
  assert.not.ok(clients.includes('203.0.113.9'));
});

// What the uWS build leaves unanswered until its idle timeout, and what nginx makes of each.
const UNANSWERED_DIRECTLY: Array<[string, string, number]> = [
  ['more than 50 headers', `GET /health HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 60 }, (_, i) => `X-H${i}: v\r\n`).join('')}Connection: close\r\n\r\n`, 200],
  ['no Host over HTTP/1.1', 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n', 400],
  ['an obs-fold header', 'GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\r\n  b\r\nConnection: close\r\n\r\n', 400],
  ['a bare CR in a header', 'GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\nConnection: close\r\n\r\n', 400],
  ['bare LF line ends', 'GET /health HTTP/1.1\nHost: x\nConnection: close\n\n', 200],
  ['two spaces in the request line', 'GET  /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 200],
];

for (const [name, raw, status] of UNANSWERED_DIRECTLY) {
  test(`a request with ${name} gets ${status} through nginx`, async ({ nginx }) => {
    assert.equal(statuses(await exchange(nginx.port, raw)), [status]);
  });
}

test('the headers nettools reads reach it through nginx', async ({ nginx }) => {
  const echoed = await exchange(nginx.port, 'GET /health HTTP/1.1\r\nHost: x\r\nX-Request-Id: front-door-1\r\nConnection: close\r\n\r\n');
  assert.match(echoed, /\r\nx-request-id: front-door-1\r\n/i);

  const keyed = await exchange(nginx.port, 'GET /api/limits HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer nt_unknown\r\nConnection: close\r\n\r\n', '127.0.0.31');
  assert.equal(statuses(keyed), [401]);
  assert.match(keyed, '"code":"invalid-api-key"');

  const body = '{"domain":"a b"}';
  const typed = await exchange(nginx.port, `POST /api/tools/dns HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nOrigin: http://page.test\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`, '127.0.0.32');
  assert.equal(statuses(typed), [400]);
  assert.match(typed, '"code":"validation-failed"');
  assert.match(typed, /\r\naccess-control-expose-headers: /i);

  const page = await exchange(nginx.port, 'GET /docs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  const etag = /\r\netag: ("[^"]+")\r\n/i.exec(page)?.[1];
  assert.ok(etag, page.slice(0, 300));
  assert.equal(statuses(await exchange(nginx.port, `GET /docs HTTP/1.1\r\nHost: x\r\nIf-None-Match: ${etag}\r\nConnection: close\r\n\r\n`)), [304]);
});

test('an X-Request-Id ending in a byte above 0x7F is replaced, not echoed trimmed', async ({ nginx }) => {
  const raw = Buffer.from('GET /health HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc\xe9\r\nConnection: close\r\n\r\n', 'latin1');
  const answer = await exchange(nginx.port, raw);
  assert.equal(statuses(answer), [200]);
  const id = /\r\nx-request-id: ([^\r]*)\r\n/i.exec(answer)?.[1];
  assert.match(id ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-/);
});

test.run();
