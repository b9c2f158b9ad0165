import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NettoolsClient } from '../../clients/typescript/src/index';
import { startServer, type RunningServer } from '../support/server';

// The typed client's tls() and tlsStream() against the real server and a Node TLS server on loopback. No resolver is asked.
const test = suite<{ open: RunningServer; dir: string; site: Server; port: number }>('client tls() and tlsStream()');

test.before(async (ctx) => {
  ctx.open = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s' });
  ctx.dir = mkdtempSync(join(tmpdir(), 'nt-client-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '3', '-subj', '/CN=client.tls.test'], { cwd: ctx.dir, stdio: 'ignore' });
  ctx.site = createServer({ key: readFileSync(join(ctx.dir, 'key.pem')), cert: readFileSync(join(ctx.dir, 'cert.pem')) });
  await new Promise<void>((resolve) => ctx.site.listen(0, '127.0.0.1', resolve));
  ctx.port = (ctx.site.address() as net.AddressInfo).port;
});

test.after(async (ctx) => {
  await ctx.open?.stop();
  await new Promise((r) => ctx.site?.close(r));
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('tls() answers the handshake facts as a value, a self-signed leaf included', async ({ open, port }) => {
  const answer = await new NettoolsClient({ baseUrl: open.base }).tls({ host: '127.0.0.1', port, serverName: 'client.tls.test' });
  assert.ok(answer.ok, JSON.stringify(answer));
  if (!answer.ok) return;
  assert.is(answer.value.status, 'handshake');
  assert.is(answer.value.verifyError, 'DEPTH_ZERO_SELF_SIGNED_CERT');
  assert.is(answer.value.certificates?.[0]?.subject, 'client.tls.test');
});

test('tlsStream() yields the start, then the summary holding what tls() answers', async ({ open, port }) => {
  const events = [];
  for await (const e of new NettoolsClient({ baseUrl: open.base }).tlsStream({ host: '127.0.0.1', port, serverName: 'client.tls.test' })) events.push(e);
  assert.equal(events.map((e) => e.event), ['start', 'summary']);
  const summary = events[1];
  if (summary?.event !== 'summary') return assert.unreachable('no summary');
  assert.is(summary.data.status, 'handshake');
  assert.is(summary.data.certificates?.[0]?.subject, 'client.tls.test');
});

test('tls() gives a refused port as its problem', async ({ open }) => {
  const answer = await new NettoolsClient({ baseUrl: open.base }).tls({ host: '127.0.0.1', port: 25 });
  assert.is(answer.ok, false);
  if (answer.ok || answer.error.kind !== 'problem') return assert.unreachable(JSON.stringify(answer));
  assert.equal([answer.error.status, answer.error.problem.code], [422, 'target-forbidden']);
});

test.run();
