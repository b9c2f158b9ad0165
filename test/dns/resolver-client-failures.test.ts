import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import net from 'node:net';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient, type QueryEntry, type ResolverClient } from '../../src/engines/dns';
import { SENDS } from '../../src/engines/dns/types';
import type { ResolverConfig } from '../../src/config/types';
import { startSilentDns } from '../support/fault-dns';
import { freeDnsPort } from '../support/ports';
import { waitFor } from '../support/wait';

type Silent = Awaited<ReturnType<typeof startSilentDns>>;

let client: ResolverClient;
let silent: Silent;
let silentResolver: ResolverConfig;
// Answers every UDP query with TC set; its TCP side (when listening) sends garbage with the right ID.
let truncator: dgram.Socket;
let garbageTcp: net.Server | undefined;
const tcpSockets = new Set<net.Socket>();

function truncatedEcho(query: Buffer): Buffer {
  const reply = Buffer.from(query);
  reply[2] = 0x80 | 0x02 | 0x01; // QR, TC, RD
  return reply;
}

test.before(async () => {
  client = openResolverClient();
  silent = await startSilentDns();
  silentResolver = { id: 'silent', address: silent.address, port: silent.port, family: 4 };
  const port = await freeDnsPort('127.0.0.1');
  truncator = dgram.createSocket('udp4');
  truncator.on('message', (msg, peer) => truncator.send(truncatedEcho(msg), peer.port, peer.address));
  await new Promise<void>((resolve) => truncator.bind(port, '127.0.0.1', resolve));
});

test.after(async () => {
  client?.close();
  await silent?.stop();
  await new Promise<void>((resolve) => (truncator ? truncator.close(() => resolve()) : resolve()));
  for (const s of tcpSockets) s.destroy();
  await new Promise<void>((resolve) => (garbageTcp ? garbageTcp.close(() => resolve()) : resolve()));
});

async function one(resolver: ResolverConfig, timeoutMs: number, signal?: AbortSignal, domain = 'example.test'): Promise<QueryEntry | undefined> {
  const [r] = await client.query({ domain, types: ['A'], resolvers: [resolver], timeoutMs }, signal);
  return r?.queries.A;
}

test('a silent resolver times out after one resend at half the budget', async () => {
  const before = client.counters();
  const receivedBefore = silent.received;
  assert.equal(await one(silentResolver, 400), { error: 'timeout' });
  const after = client.counters();
  assert.is(silent.received - receivedBefore, 2);
  assert.is(after.retries - before.retries, 1);
  assert.is(after.timeouts - before.timeouts, 1);
  assert.is(after.inFlight, 0);
});

test('aborting the request cancels its queries and closes their sockets', async () => {
  const before = client.counters();
  const ac = new AbortController();
  const received = silent.received;
  const pending = one(silentResolver, 5000, ac.signal);
  await waitFor('the query at the silent resolver', () => silent.received > received);
  ac.abort();
  assert.equal(await pending, { error: 'cancelled' });
  const after = client.counters();
  assert.is(after.cancelled - before.cancelled, 1);
  assert.is(after.inFlight, 0);
});

test('a query cancelled after its resend still reports both packets it sent', async () => {
  const receivedBefore = silent.received;
  const ac = new AbortController();
  const pending = one(silentResolver, 4000, ac.signal);
  await waitFor('the resend at the silent resolver', () => silent.received - receivedBefore === 2);
  ac.abort();
  const entry = await pending;
  assert.equal(entry, { error: 'cancelled' });
  assert.is(entry?.[SENDS], 2);
});

test('a query cancelled before its datagram left reports nothing sent, and nothing reaches the resolver', async () => {
  const receivedBefore = silent.received;
  let cancelled: QueryEntry | undefined;
  const cancel = client.start({ domain: 'gone.example.test', types: ['A'], resolvers: [silentResolver], timeoutMs: 1000 }, ([r]) => (cancelled = r?.queries.A));
  cancel(); // in the same turn: the datagram is still queued
  assert.equal(cancelled, { error: 'cancelled' });
  assert.is(cancelled?.[SENDS], 0);
  // A later query does arrive, and it is the only one.
  const stop = new AbortController();
  const later = one(silentResolver, 4000, stop.signal);
  await waitFor('the later query at the silent resolver', () => silent.received > receivedBefore);
  assert.is(silent.received - receivedBefore, 1);
  stop.abort();
  await later;
});

test('an already aborted signal sends nothing', async () => {
  const before = client.counters();
  const ac = new AbortController();
  ac.abort();
  assert.equal(await one(silentResolver, 1000, ac.signal), { error: 'cancelled' });
  assert.is(client.counters().sent, before.sent);
});

test('a truncated answer whose TCP retry is refused reports connection-refused', async () => {
  const port = (truncator.address() as { port: number }).port;
  const entry = await one({ id: 't', address: '127.0.0.1', port, family: 4 }, 2000);
  assert.equal(entry, { error: 'connection-refused' });
});

test('a malformed answer over TCP is reported as malformed with the precise reason', async () => {
  const port = (truncator.address() as { port: number }).port;
  garbageTcp = net.createServer((sock) => {
    tcpSockets.add(sock);
    sock.on('close', () => tcpSockets.delete(sock));
    sock.once('data', (query) => {
      // Right ID (bytes 2-3 after the length prefix), QR set, and a question name that points at itself.
      const body = Buffer.from([query[2] ?? 0, query[3] ?? 0, 0x81, 0x80, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1]);
      const len = Buffer.alloc(2);
      len.writeUInt16BE(body.length);
      sock.end(Buffer.concat([len, body]));
    });
  });
  await new Promise<void>((resolve) => garbageTcp?.listen(port, '127.0.0.1', resolve));
  const entry = await one({ id: 't', address: '127.0.0.1', port, family: 4 }, 2000);
  assert.equal(entry, { error: 'malformed', detail: 'bad-compression-pointer' });
});

test('a resolver address that is not an IP literal is refused without any lookup', async () => {
  assert.equal(await one({ id: 'x', address: 'resolver.invalid', port: 53, family: 4 }, 500), { error: 'invalid-address' });
});

test('a resolver address with a non-ASCII character is refused, not read byte by byte', async () => {
  // U+012E keeps 0x2E ('.') in its low byte: read as Latin-1 this would be 127.0.0.1.
  assert.equal(await one({ id: 'x', address: '127\u012e0.0.1', port: 53, family: 4 }, 500), { error: 'invalid-address' });
});

test('a resolver address longer than any IP literal is refused', async () => {
  assert.equal(await one({ id: 'x', address: `127.0.0.1${' '.repeat(80)}`, port: 53, family: 4 }, 500), { error: 'invalid-address' });
});

test('a record type the engine does not ask for is refused in its place', async () => {
  const [r] = await client.query({ domain: 'example.test', types: ['ANY' as 'A'], resolvers: [silentResolver], timeoutMs: 500 });
  assert.equal(r?.queries['ANY' as 'A'], { error: 'invalid-type' });
});

test('a name with a label over 63 bytes is refused before sending', async () => {
  const entry = await one(silentResolver, 500, undefined, `${'a'.repeat(64)}.test`);
  assert.equal(entry, { error: 'invalid-name' });
});

test('close() settles queries in flight as cancelled and later queries as engine-closed', async () => {
  const own = openResolverClient();
  const pending = own.query({ domain: 'example.test', types: ['A', 'MX'], resolvers: [silentResolver], timeoutMs: 5000 });
  own.close();
  const [r] = await pending;
  assert.equal(r?.queries, { A: { error: 'cancelled' }, MX: { error: 'cancelled' } });
  const [later] = await own.query({ domain: 'example.test', types: ['A'], resolvers: [silentResolver], timeoutMs: 500 });
  assert.equal(later?.queries.A, { error: 'engine-closed' });
});

test('an idle engine, even never closed, does not keep Node running', async () => {
  // The compiled client beside this compiled test: dist/src/engines/dns.
  const clientPath = path.resolve(__dirname, '..', '..', 'src', 'engines', 'dns');
  const script = `
    const { openResolverClient } = require(${JSON.stringify(clientPath)});
    openResolverClient()
      .query({ domain: 'example.test', types: ['A'], resolvers: [${JSON.stringify(silentResolver)}], timeoutMs: 200 })
      .then(([r]) => console.log(JSON.stringify(r.queries.A)));
  `;
  const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = execFile(process.execPath, ['-e', script], { timeout: 10_000 }, (err, out) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout: out }),
    );
    void child;
  });
  assert.is(code, 0);
  assert.equal(JSON.parse(stdout), { error: 'timeout' });
});

test.run();
