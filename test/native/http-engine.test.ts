// The HTTP exchange engine against scripted servers on loopback: what it writes, how it reads each
// framing a server may choose, and how it ends when the answer is not whole or not HTTP. (nginx answers
// the http tool's tests, test/tools/http; these are the cases a real server does not produce on demand.)
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { httpLimits, openHttpExchanger, type ExchangeResult, type ExchangeSpec, type HttpExchanger } from '../../src/engines/http/exchanger';
import { addon } from '../../src/native/addon';
import { parseAddress } from '../../src/net/address';
import { openTrustStore, type TrustStore } from '../../src/tools/tls/trust-store';
import { freeTcpPort } from '../support/ports';
import { waitFor } from '../support/wait';

const test = suite<{ engine: HttpExchanger }>('HttpEngine: exchanges with scripted servers');
const LOOPBACK = parseAddress('127.0.0.1')!;
const REQUEST = 'GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n';

test.before((ctx) => {
  ctx.engine = openHttpExchanger((openTrustStore(null) as TrustStore).pem);
});

test.after(({ engine }) => engine.close());

interface Scripted {
  port: number;
  received: () => string;
  closed: Promise<void>;
  stop: () => Promise<void>;
}

// A server that waits for the request's blank line (or, `atOnce`, for any first bytes), then writes
// `answer` in the given pieces and, unless `keepOpen`, closes.
async function scripted(answer: string[], keepOpen = false, atOnce = false): Promise<Scripted> {
  let got = '';
  let closed!: () => void;
  const closedP = new Promise<void>((r) => (closed = r));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => {
      sockets.delete(s);
      closed();
    });
    s.on('error', () => undefined);
    s.on('data', (d) => {
      got += d.toString('latin1');
      if (!atOnce && !got.includes('\r\n\r\n')) return;
      if (atOnce && got.length !== d.length) return;
      for (const piece of answer) s.write(Buffer.from(piece, 'latin1'));
      if (!keepOpen) s.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    received: () => got,
    closed: closedP,
    stop: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

function spec(port: number, extra: Partial<ExchangeSpec> = {}): ExchangeSpec {
  return { address: LOOPBACK, port, timeoutMs: 3000, tls: false, serverName: '', verify: true, request: REQUEST, headRequest: false, bodyMaxBytes: 1 << 20, ...extra };
}

function run(engine: HttpExchanger, s: ExchangeSpec): Promise<ExchangeResult> {
  return new Promise((resolve) => engine.exchange(s, resolve));
}

async function answerTo(engine: HttpExchanger, answer: string[], extra: Partial<ExchangeSpec> = {}): Promise<ExchangeResult> {
  const server = await scripted(answer);
  try {
    return await run(engine, spec(server.port, extra));
  } finally {
    await server.stop();
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

test('the request head is written as given, byte for byte, and nothing else', async ({ engine }) => {
  const server = await scripted(['HTTP/1.1 204 No Content\r\n\r\n']);
  try {
    const r = await run(engine, spec(server.port));
    assert.is(r.stage, 'answered');
    assert.is(server.received(), REQUEST);
  } finally {
    await server.stop();
  }
});

test('a Content-Length body is read whole, counted and hashed, and every phase is stamped in order', async ({ engine }) => {
  const r = await answerTo(engine, ['HTTP/1.1 200 OK\r\nContent-Length: 11\r\nX-A: 1\r\n\r\n', 'hello', ' world']);
  assert.is(r.stage, 'answered');
  assert.is(r.status, 200);
  assert.is(r.httpVersion, '1.1');
  assert.equal(r.rawHeaders, ['Content-Length', '11', 'X-A', '1']);
  assert.equal(r.body, { bytes: 11, truncated: false, sha256: sha256('hello world') });
  const phases = [r.connectNs, r.requestNs, r.firstByteNs, r.transferNs];
  for (const p of phases) assert.ok(p !== undefined && p >= 0);
  assert.is(r.tlsNs, undefined);
  assert.ok(r.totalNs >= phases.reduce((a, b) => (a as number) + (b as number), 0)!);
});

test('a chunked body is hashed as decoded, its extensions and trailer passed over', async ({ engine }) => {
  const r = await answerTo(engine, ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n', '6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n']);
  assert.is(r.stage, 'answered');
  assert.equal(r.body, { bytes: 11, truncated: false, sha256: sha256('hello world') });
});

test('a body without a length is read to the close', async ({ engine }) => {
  const r = await answerTo(engine, ['HTTP/1.0 200 OK\r\n\r\n', 'all of it']);
  assert.is(r.stage, 'answered');
  assert.is(r.httpVersion, '1.0');
  assert.equal(r.body, { bytes: 9, truncated: false, sha256: sha256('all of it') });
});

test('a 100 Continue before the answer is passed over: the final status is reported', async ({ engine }) => {
  const r = await answerTo(engine, ['HTTP/1.1 100 Continue\r\n\r\n', 'HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n']);
  assert.is(r.status, 201);
  assert.is(r.stage, 'answered');
});

test('interim answers without end fail as a head overflow, not at the timeout', async ({ engine }) => {
  const server = await scripted(['HTTP/1.1 100 Continue\r\n\r\n'.repeat(3000)], true);
  try {
    const r = await run(engine, spec(server.port, { timeoutMs: 60000 }));
    assert.is(r.stage, 'response');
    assert.is(r.failure, 'error');
    assert.is(r.code, 'HPE_HEADER_OVERFLOW');
  } finally {
    await server.stop();
  }
});

test('chunk extensions past 16 KiB over an answer fail as Node names it, not at the timeout', async ({ engine }) => {
  const chunk = `1;${'x'.repeat(1000)}\r\na\r\n`;
  const server = await scripted(['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n', chunk.repeat(17)], true);
  try {
    const r = await run(engine, spec(server.port, { timeoutMs: 60000 }));
    assert.is(r.stage, 'response');
    assert.is(r.failure, 'error');
    assert.is(r.code, 'HPE_CHUNK_EXTENSIONS_OVERFLOW');
    assert.is(r.status, 200);
  } finally {
    await server.stop();
  }
});

test('the answer to a HEAD has no body whatever its Content-Length says', async ({ engine }) => {
  const server = await scripted(['HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n'], true);
  try {
    const r = await run(engine, spec(server.port, { headRequest: true, request: REQUEST.replace('GET', 'HEAD') }));
    assert.is(r.stage, 'answered');
    assert.equal(r.body, { bytes: 0, truncated: false, sha256: sha256('') });
  } finally {
    await server.stop();
  }
});

test('a body past the cap is hashed up to it, marked truncated, and the connection closed', async ({ engine }) => {
  const server = await scripted(['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n', 'a'.repeat(60)], true);
  try {
    const r = await run(engine, spec(server.port, { bodyMaxBytes: 50 }));
    assert.is(r.stage, 'answered');
    assert.equal(r.body, { bytes: 50, truncated: true, sha256: sha256('a'.repeat(50)) });
    await server.closed;
  } finally {
    await server.stop();
  }
});

test('an answer that is not HTTP is a response error with the HTTP parser code', async ({ engine }) => {
  const r = await answerTo(engine, ['SSH-2.0-OpenSSH_9.2\r\n']);
  assert.is(r.stage, 'response');
  assert.is(r.failure, 'error');
  assert.is(r.code, 'HPE_INVALID_CONSTANT');
  assert.is(r.status, undefined);
});

test('a body cut off before its Content-Length is a response error, ECONNRESET, with the head and the part read', async ({ engine }) => {
  const r = await answerTo(engine, ['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n', 'only this']);
  assert.is(r.stage, 'response');
  assert.is(r.code, 'ECONNRESET');
  assert.is(r.status, 200);
  assert.is(r.body?.bytes, 9);
});

test('an answer that never comes within timeoutMs is a response timeout, the request sent', async ({ engine }) => {
  const server = await scripted([], true);
  try {
    const r = await run(engine, spec(server.port, { timeoutMs: 200 }));
    assert.is(r.stage, 'response');
    assert.is(r.failure, 'timeout');
    assert.ok(r.requestNs !== undefined);
    assert.is(r.firstByteNs, undefined);
    await server.closed;
  } finally {
    await server.stop();
  }
});

// A server in a process of its own, answering `delayMs` after the request's blank line.
async function delayedServer(delayMs: number): Promise<{ port: number; stop: () => void }> {
  const script = `const s = require('net').createServer((c) => { let got = ''; c.on('data', (d) => { got += d; if (got.includes('\\r\\n\\r\\n')) setTimeout(() => c.end('HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\n\\r\\nok'), ${delayMs}); }); }); s.listen(0, '127.0.0.1', () => process.stdout.write(s.address().port + '\\n'));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  while (!/^\d+\n/m.test(out)) out += String(((await once(child.stdout!, 'data')) as [Buffer])[0]);
  return { port: Number(/^(\d+)\n/m.exec(out)![1]), stop: () => child.kill() };
}

test('time this process spends elsewhere while the answer waits is not counted: firstByte is the answer arriving', async ({ engine }) => {
  const server = await delayedServer(20);
  try {
    const done = run(engine, spec(server.port));
    await new Promise((r) => setTimeout(r, 5)); // the request is out
    spawnSync('sleep', ['0.3']); // this thread held for 300 ms while the answer arrives at 20
    const r = await done;
    assert.is(r.stage, 'answered');
    assert.ok((r.firstByteNs as number) < 150e6, `firstByteNs ${r.firstByteNs}`);
    assert.ok(r.totalNs < 150e6, `totalNs ${r.totalNs}`);
  } finally {
    server.stop();
  }
});

test('a closed port is a connect failure, refused, ECONNREFUSED', async ({ engine }) => {
  const r = await run(engine, spec(await freeTcpPort('127.0.0.1')));
  assert.equal([r.stage, r.failure, r.code, r.connectNs], ['connect', 'refused', 'ECONNREFUSED', undefined]);
});

test('plain HTTP answering a TLS exchange is a failed handshake, the OpenSSL reason named as Node names it', async ({ engine }) => {
  const server = await scripted(['HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n'], false, true);
  try {
    const r = await run(engine, spec(server.port, { tls: true }));
    assert.equal([r.stage, r.failure, r.code], ['handshake', 'error', 'ERR_SSL_WRONG_VERSION_NUMBER']);
    assert.ok(r.connectNs !== undefined && r.tlsNs === undefined && r.requestNs === undefined);
  } finally {
    await server.stop();
  }
});

test('the result never comes from inside exchange()', async ({ engine }) => {
  const port = await freeTcpPort('127.0.0.1');
  let inside = true;
  let early = false;
  const done = new Promise<void>((resolve) =>
    engine.exchange(spec(port), () => {
      early = inside;
      resolve();
    }),
  );
  inside = false;
  await done;
  assert.is(early, false);
});

test('a cancelled exchange closes its connection at once, and its result never comes', async ({ engine }) => {
  const server = await scripted([], true);
  try {
    let called = false;
    const stop = engine.exchange(spec(server.port), () => (called = true));
    await waitFor('the request to arrive', () => server.received().includes('\r\n\r\n'));
    stop();
    await server.closed;
    assert.is(called, false);
    assert.is(engine.inFlight(), 0);
  } finally {
    await server.stop();
  }
});

test('every exchange releases its socket, whether it ended, was cancelled, or its engine closed', async () => {
  const openFds = () => readdirSync('/proc/self/fd').length;
  const before = openFds();
  const server = await scripted(['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok']);
  const engine = openHttpExchanger((openTrustStore(null) as TrustStore).pem);
  try {
    await Promise.all(Array.from({ length: 10 }, () => run(engine, spec(server.port))));
    for (let i = 0; i < 10; i++) engine.exchange(spec(server.port), () => undefined)();
    for (let i = 0; i < 10; i++) engine.exchange(spec(server.port), () => undefined);
  } finally {
    engine.close();
    await server.stop();
  }
  await waitFor('every socket to be closed', () => openFds() <= before);
});

// A server that answers whole, then holds the connection open until told to close, noting whether the
// client closed first (its FIN: 'end' on the server's socket).
async function holdingServer(answer: string): Promise<{ port: number; clientClosedFirst: () => boolean; serverClose: () => void; ended: Promise<void>; stop: () => Promise<void> }> {
  let socket: net.Socket | null = null;
  let serverClosed = false;
  let clientFirst = false;
  let ended!: () => void;
  const endedP = new Promise<void>((r) => (ended = r));
  const server = net.createServer((s) => {
    socket = s;
    s.on('error', () => undefined);
    s.on('end', () => {
      if (!serverClosed) clientFirst = true;
      ended();
    });
    let got = '';
    s.on('data', (d) => {
      got += d.toString('latin1');
      if (got.includes('\r\n\r\n')) s.write(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    clientClosedFirst: () => clientFirst,
    serverClose: () => {
      serverClosed = true;
      socket?.end();
    },
    ended: endedP,
    stop: () => {
      socket?.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

test('after a whole answer the server closes first: the result comes at once, the socket waits for its FIN', async ({ engine }) => {
  const server = await holdingServer('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
  try {
    const r = await run(engine, spec(server.port));
    assert.is(r.stage, 'answered');
    // The result is out while the server still holds the connection, and the client has not closed it.
    await new Promise((resolve) => setTimeout(resolve, 100)); // a pause in which nothing may happen
    assert.is(server.clientClosedFirst(), false);
    server.serverClose();
    await server.ended;
    assert.is(server.clientClosedFirst(), false);
  } finally {
    await server.stop();
  }
});

test('a server that never closes after a whole answer is closed by the engine after a while', async ({ engine }) => {
  const server = await holdingServer('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
  try {
    const r = await run(engine, spec(server.port));
    assert.is(r.stage, 'answered');
    await server.ended;
    assert.is(server.clientClosedFirst(), true);
  } finally {
    await server.stop();
  }
});

test('an engine closed while a connection waits for the server to close closes it at once', async () => {
  const engine = openHttpExchanger((openTrustStore(null) as TrustStore).pem);
  const server = await holdingServer('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
  try {
    await run(engine, spec(server.port));
    engine.close();
    await server.ended;
    assert.is(server.clientClosedFirst(), true);
  } finally {
    await server.stop();
  }
});

test('a worker terminated with an exchange in flight closes its connection, and this thread goes on', async ({ engine }) => {
  const server = await scripted([], true);
  try {
    for (let i = 0; i < 3; i++) {
      const worker = new Worker(path.resolve(__dirname, '..', 'support', 'http-exchanger-worker.js'), { workerData: { port: server.port } });
      const [msg] = (await once(worker, 'message')) as [{ inFlight: number }];
      assert.is(msg.inFlight, 1);
      await worker.terminate();
    }
    await server.closed;
    const r = await run(engine, spec(await freeTcpPort('127.0.0.1')));
    assert.is(r.failure, 'refused');
  } finally {
    await server.stop();
  }
});

test('arguments out of the engine limits are refused with invalid-argument', () => {
  const engine = new (addon().HttpEngine)((openTrustStore(null) as TrustStore).pem);
  try {
    const limits = httpLimits();
    const call = (port: number, request: string) => () => engine.exchange(LOOPBACK.bytes, 4, port, 1000, false, '', true, request, false, 10, () => undefined);
    assert.throws(call(0, REQUEST), (e: NodeJS.ErrnoException) => e.code === 'invalid-argument');
    assert.throws(call(80, 'x'.repeat(limits.requestBytes[1] + 1)), (e: NodeJS.ErrnoException) => e.code === 'invalid-argument');
  } finally {
    engine.close();
  }
});

test('an engine given no certificate refuses to start with no-trust-anchors', () => {
  assert.throws(() => new (addon().HttpEngine)('not a certificate'), (e: NodeJS.ErrnoException) => e.code === 'no-trust-anchors');
});

test.run();
