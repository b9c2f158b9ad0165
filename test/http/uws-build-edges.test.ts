import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import net from 'node:net';
import { HEADER_SECTION_LIMIT, loadNativeUws, type HttpRequest, type HttpResponse, type us_listen_socket } from '../../src/http/uws';
import { currentPlatform, pickUwsBuild } from '../../src/http/uws-platform';
import { startServer, type RunningServer } from '../support/server';

// Where the two uWebSockets.js builds differ at the edges of HTTP/1.1, each build's behaviour stated, so
// the run on either Node line checks its own (README, "Supported platforms"). Raw bytes on loopback.
const pick = pickUwsBuild(currentPlatform());
const build = pick.ok ? pick.choice.build : 'none';
const NEW = build === 'uwsjs-20.69';

const test = suite<{ server: RunningServer; bare: { port: number; close(): void } }>(`uWS build edges (${build})`);

// A bare app of the loaded build, to see what its parser hands over: it reads the body to the end and
// answers with the URL and the char codes getHeader gives for X-Probe.
function startBare(): Promise<{ port: number; close(): void }> {
  const uws = loadNativeUws();
  const app = uws.App();
  app.any('/*', (res: HttpResponse, req: HttpRequest) => {
    const seen = JSON.stringify({ url: req.getUrl(), probe: [...req.getHeader('x-probe')].map((c) => c.charCodeAt(0)) });
    res.onAborted(() => undefined);
    res.onData((_chunk, isLast) => {
      if (isLast) res.cork(() => res.end(seen));
    });
  });
  return new Promise((resolve, reject) => {
    app.listen('127.0.0.1', 0, (socket: us_listen_socket | false) => {
      if (!socket) return reject(new Error('bare app did not listen'));
      resolve({ port: uws.us_socket_local_port(socket as never), close: () => uws.us_listen_socket_close(socket) });
    });
  });
}

test.before(async (ctx) => {
  ctx.server = await startServer();
  ctx.bare = await startBare();
});

test.after(async (ctx) => {
  ctx.bare?.close();
  await ctx.server?.stop();
});

interface Exchange {
  data: string;
  closedByServer: boolean;
}

// Sends `raw`, then collects what comes back until the server closes, `enough` says so, or `waitMs` ends.
function exchange(port: number, raw: string, waitMs: number, enough: (data: string) => boolean = () => false): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(Buffer.from(raw, 'latin1')));
    let data = '';
    let closedByServer = true;
    const finish = () => {
      closedByServer = false;
      socket.destroy();
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (c: Buffer) => {
      data += c.toString('latin1');
      if (enough(data)) finish();
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ data, closedByServer });
    });
    socket.on('error', reject);
  });
}

const statuses = (data: string) => [...data.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

if (NEW) {
  test('uwsjs-20.69: HTTP/1.0 is answered 505 at once and the connection closed', async ({ server }) => {
    const got = await exchange(server.port, 'GET /health HTTP/1.0\r\n\r\n', 5000);
    assert.equal(statuses(got.data), [505]);
    assert.ok(got.closedByServer);
  });

  test('uwsjs-20.69: Transfer-Encoding beside Content-Length is answered 400 and the connection closed', async ({ server }) => {
    const got = await exchange(server.port, 'POST /api/tools/dns HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: xchunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n', 5000);
    assert.equal(statuses(got.data), [400]);
    assert.ok(got.closedByServer);
  });
} else {
  test('uws-20.30: HTTP/1.0 gets no answer; the connection waits for the idle timeout', async ({ server }) => {
    const got = await exchange(server.port, 'GET /health HTTP/1.0\r\n\r\n', 1500);
    assert.is(got.data, '');
    assert.not.ok(got.closedByServer);
  });

  test('uws-20.30: Transfer-Encoding beside Content-Length closes the connection with no answer', async ({ server }) => {
    const got = await exchange(server.port, 'POST /api/tools/dns HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: xchunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n', 5000);
    assert.is(got.data, '');
    assert.ok(got.closedByServer);
  });
}

// The same in both builds: an unknown coding alone is read as chunked, so the bytes after the empty
// chunk are a second request. Only nginx in front refuses it (test/deploy/nginx.test.ts).
for (const te of ['xchunked', 'chunked, gzip']) {
  test(`${build}: Transfer-Encoding "${te}" alone is read as chunked, and what follows is a second request`, async ({ bare }) => {
    const raw = `POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ${te}\r\n\r\n0\r\n\r\nGET /smuggled-te HTTP/1.1\r\nHost: x\r\n\r\n`;
    const got = await exchange(bare.port, raw, 5000, (d) => /smuggled-te.*\}$/.test(d));
    assert.equal(statuses(got.data), [200, 200]);
    assert.match(got.data, '{"url":"/smuggled-te"');
  });
}

// The same in both builds: bytes above 0x7F at either end of a header value are cut off, like spaces.
test(`${build}: a header value's leading and trailing bytes above 0x7F do not reach the app`, async ({ bare }) => {
  for (const value of ['abc\xe9', 'abc\xc3\xa9', '\xe9abc', 'abc\xff\x80']) {
    const got = await exchange(bare.port, `GET /h HTTP/1.1\r\nHost: x\r\nX-Probe: ${value}\r\n\r\n`, 5000, (d) => /\}$/.test(d));
    assert.match(got.data, /"probe":\[97,98,99\]\}$/, JSON.stringify(value));
  }
});

test(`${build}: a byte above 0x7F inside a header value reaches the app as that byte`, async ({ bare }) => {
  const got = await exchange(bare.port, 'GET /h HTTP/1.1\r\nHost: x\r\nX-Probe: a\xe9bc\r\n\r\n', 5000, (d) => /\}$/.test(d));
  assert.match(got.data, /"probe":\[97,233,98,99\]\}$/);
});

const bigHeader = (bytes: number) => `GET /h HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(bytes)}\r\nX-Probe: abc\r\n\r\n`;

// A 10 KiB Authorization must reach nettools to be answered 401 (the contract), on either build.
test(`${build}: a 10 KiB header reaches the app`, async ({ bare }) => {
  const got = await exchange(bare.port, bigHeader(10 * 1024), 5000, (d) => /\}$/.test(d));
  assert.match(got.data, /^HTTP\/1\.1 200 OK\r\n[^]*"probe":\[97,98,99\]\}$/);
});

if (NEW) {
  test(`uwsjs-20.69: a header section over ${HEADER_SECTION_LIMIT} bytes is answered 431`, async ({ bare }) => {
    const got = await exchange(bare.port, bigHeader(HEADER_SECTION_LIMIT + 100), 5000);
    assert.equal(statuses(got.data), [431]);
  });
} else {
  test(`uws-20.30: a header section of 64 KB still reaches the app (it has no such limit)`, async ({ bare }) => {
    const got = await exchange(bare.port, bigHeader(64_000), 5000, (d) => /\}$/.test(d));
    assert.match(got.data, /"probe":\[97,98,99\]\}$/);
  });
}

// The same in both builds: of two different Content-Lengths the first is taken, and the rest of the
// body is read as a second request.
test(`${build}: of two different Content-Lengths the first is taken, and the rest is a second request`, async ({ bare }) => {
  const raw = 'POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 40\r\n\r\nabcGET /smuggled-cl HTTP/1.1\r\nHost: x\r\n\r\n';
  const got = await exchange(bare.port, raw, 5000, (d) => /smuggled-cl.*\}$/.test(d));
  assert.equal(statuses(got.data), [200, 200]);
  assert.match(got.data, '{"url":"/smuggled-cl"');
});

test.run();
