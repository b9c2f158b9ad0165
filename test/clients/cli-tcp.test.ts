import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { run } from '../../clients/typescript/src/cli/run';
import { freeTcpPort } from '../support/ports';
import { startServer, type RunningServer } from '../support/server';
import { listenTcp, type TcpListener } from '../support/tcp-listener';

// `nettools tcp HOST PORT` against the real server and a real loopback listener. No resolver is asked.
const test = suite<{ open: RunningServer; listener: TcpListener }>('nettools tcp against a real server');

test.before(async (ctx) => {
  ctx.open = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s' });
  ctx.listener = await listenTcp('127.0.0.1');
});

test.after(async (ctx) => {
  await ctx.open?.stop();
  await ctx.listener?.stop();
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('a port that accepts prints each connection and the statistics, and exits 0', async ({ open, listener }) => {
  const r = await cli(['tcp', '127.0.0.1', String(listener.port), '-c', '2', '--interval', '200', '--server', open.base]);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, `TCP 127.0.0.1 (127.0.0.1:${listener.port}) via ${open.base}`);
  assert.match(r.out, new RegExp(`^connected to 127\\.0\\.0\\.1:${listener.port}: seq=1 time=\\d+\\.\\d{3} ms$`, 'm'));
  assert.match(r.out, /2 attempts, 2 connected, 0% failed, time \d+ms/);
  assert.match(r.out, /connect min\/avg\/max\/stddev = [\d.]+\/[\d.]+\/[\d.]+\/[\d.]+ ms/);
  assert.is(r.err, '');
});

test('a closed port prints each refusal and exits 1', async ({ open }) => {
  const port = await freeTcpPort('127.0.0.1');
  const r = await cli(['tcp', '127.0.0.1', String(port), '-c', '1', '--server', open.base]);
  assert.is(r.code, 1);
  assert.match(r.out, `refused by 127.0.0.1:${port}: seq=0 (ECONNREFUSED)`);
  assert.match(r.err, `nettools: 127.0.0.1 (127.0.0.1:${port}): no connection in 1 attempts`);
});

test('a refused port is the server refusing: exit 3 with its words', async ({ open }) => {
  const r = await cli(['tcp', '127.0.0.1', '22', '--server', open.base]);
  assert.is(r.code, 3);
  assert.match(r.err, '(target-forbidden)');
  assert.match(r.err, 'port 22 is refused');
});

test('--watch prints each attempt from the stream and the statistics', async ({ open, listener }) => {
  const r = await cli(['tcp', '127.0.0.1', String(listener.port), '-c', '2', '--interval', '200', '--watch', '--server', open.base]);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, `connected to 127.0.0.1:${listener.port}: seq=0`);
  assert.match(r.out, '2 attempts, 2 connected, 0% failed');
});

test('tcp needs a PORT, and a PORT that is a whole number', async () => {
  const missing = await cli(['tcp', '127.0.0.1']);
  assert.is(missing.code, 2);
  assert.match(missing.err, 'tcp needs a HOST and a PORT');
  const bad = await cli(['tcp', '127.0.0.1', 'https']);
  assert.is(bad.code, 2);
  assert.match(bad.err, 'PORT must be a whole number, not https');
});

test('options of other commands do not go with tcp', async () => {
  const r = await cli(['tcp', '127.0.0.1', '443', '--size', '100']);
  assert.is(r.code, 2);
  assert.match(r.err, '--size does not go with tcp');
});

test.run();
