import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, createServer, type Server } from 'node:tls';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { handshake, type HandshakeOutcome } from '../../../src/tools/tls/handshake';
import { promised, type Answer } from '../../../src/util/answer';
import { CancelSource } from '../../../src/util/cancel';

// The handshake itself, against Node TLS servers on loopback with a certificate openssl made here.
const test = suite<{ dir: string; key: string; cert: string }>('tls handshake');

test.before((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'nt-tls-hs-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '3', '-subj', '/CN=hs.tls.test', '-addext', 'subjectAltName=DNS:hs.tls.test,IP:::1'], { cwd: ctx.dir, stdio: 'ignore' });
  ctx.key = readFileSync(join(ctx.dir, 'key.pem'), 'utf8');
  ctx.cert = readFileSync(join(ctx.dir, 'cert.pem'), 'utf8');
});

test.after((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

function listen(server: Server | net.Server, address: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, address, () => resolve((server.address() as net.AddressInfo).port)));
}

const close = (server: Server | net.Server) => new Promise((r) => server.close(r));

test('an IPv6 literal is connected to as it is, and its certificate is checked against the address', async ({ key, cert }) => {
  const server = createServer({ key, cert });
  const port = await listen(server, '::1');
  try {
    const trust = { context: createSecureContext({ ca: cert }), anchors: new Set<string>() };
    const done = await promised((answer: Answer<HandshakeOutcome | null>) => handshake({ address: '::1', port, timeoutMs: 5000, trust }, new CancelSource(), answer));
    assert.is(done?.status, 'handshake');
    assert.is(done?.session?.verified, true);
    assert.equal([done?.session?.certificates[0]?.keyType, done?.session?.certificates[0]?.keyBits], ['rsa', 2048]);
  } finally {
    await close(server);
  }
});

test('a caller gone away mid-handshake ends it with no outcome, and the connection is closed', async () => {
  let closed!: () => void;
  const peerClosed = new Promise<void>((r) => (closed = r));
  const cancel = new CancelSource();
  // Accepts and says nothing: the handshake waits until the caller goes away.
  const server = net.createServer((s) => {
    s.on('close', closed);
    s.once('data', () => cancel.abort());
  });
  const port = await listen(server, '127.0.0.1');
  try {
    const done = await promised((answer: Answer<HandshakeOutcome | null>) => handshake({ address: '127.0.0.1', port, timeoutMs: 15_000, trust: { context: createSecureContext({}), anchors: new Set<string>() } }, cancel, answer));
    assert.is(done, null);
    await peerClosed;
  } finally {
    await close(server);
  }
});

test.run();
