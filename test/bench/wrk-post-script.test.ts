import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runWrk } from '../../bench/lib/wrk';

// Runs the real wrk with bench/wrk/post.lua against a small loopback server for one second.
let server: Server;
let url = '';
const seen: Array<{ method: string; type: string; body: string }> = [];

test.before(async () => {
  server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (seen.length < 50) seen.push({ method: req.method ?? '', type: req.headers['content-type'] ?? '', body: Buffer.concat(chunks).toString() });
      res.writeHead(400, { 'content-type': 'application/problem+json' }).end('{"code":"validation-failed"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/tools/ping`;
});

test.after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('post.lua POSTs the given JSON body and done() reports counts and ordered percentiles', async () => {
  const body = JSON.stringify({ host: '127.0.0.1', count: 0 });
  const run = await runWrk({ url, body, connections: 2, threads: 1, durationS: 1, timeoutS: 2 });
  assert.ok(run.ok, run.ok ? '' : run.error);
  if (!run.ok) return;
  assert.ok(run.summary.requests > 0);
  assert.ok(seen.length > 0);
  for (const s of seen) assert.equal(s, { method: 'POST', type: 'application/json', body });
  // Every answer was a 400, and wrk counts those as status errors.
  assert.is(run.summary.errors.status, run.summary.requests);
  const l = run.summary.latencyUs;
  assert.ok(l.min <= l.p50 && l.p50 <= l.p90 && l.p90 <= l.p99 && l.p99 <= l.p999 && l.p999 <= l.max);
});

test('a run against a closed port is an error naming the refused connection, not zeros', async () => {
  const closed = await new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as AddressInfo).port;
      probe.close(() => resolve(port));
    });
  });
  const run = await runWrk({ url: `http://127.0.0.1:${closed}/`, body: '{}', connections: 1, threads: 1, durationS: 1, timeoutS: 1 });
  assert.not.ok(run.ok);
  if (!run.ok) assert.match(run.error, /refused/i);
});

test.run();
