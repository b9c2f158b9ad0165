import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config/config';
import { createLogger, type LineSink } from '../../src/log';
import { superviseWorkers, type Supervisor } from '../../src/workers/supervisor';
import { request } from '../support/http';
import { parsePromText, sampleValue } from '../support/prom-text';
import { waitFor } from '../support/wait';

// The supervisor in this process, as main.ts runs it with NETTOOLS_WORKERS=2. A worker thread is ended
// from outside (as an out-of-memory or a bug in a native callback would end it): the process must
// serve on, with a new worker in its place.
const test = suite<{ sup: Supervisor; lines: string[] }>('a worker thread that ends is replaced');

const ARGV = ['--host', '127.0.0.1', '--port', '0', '--workers', '2', '--resolvers', 'w=127.0.0.1:1053', '--log-level', 'silent', '--rate-limit', '10000/1s'];

test.before(async (ctx) => {
  ctx.lines = [];
  const sink: LineSink = { write: (line) => void ctx.lines.push(line) };
  ctx.sup = await superviseWorkers(loadConfig({}, ARGV), ARGV, createLogger('info', sink));
});

test.after(async ({ sup }) => {
  await sup?.shutdown(1000);
});

test('the port serves on, and a new worker takes the dead one\'s place', async ({ sup, lines }) => {
  const base = `http://127.0.0.1:${sup.port}`;
  const first = sup.threads()[0];
  await first?.terminate();
  await waitFor('a replacement', () => sup.threads()[0] !== null && sup.threads()[0] !== first);
  for (let i = 0; i < 20; i++) assert.is((await request(base, '/health')).status, 200);
  assert.is(sup.restarts(), 1);
  const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'a worker thread ended; starting another');
  assert.is(logged?.worker, 0);
});

test('/metrics counts the replaced worker', async ({ sup }) => {
  const base = `http://127.0.0.1:${sup.port}`;
  // Any worker answers /metrics for the whole process: the new one must be listening too.
  await waitFor('the new worker listening', () => sup.threads().every((w) => w !== null));
  const samples = parsePromText((await request(base, '/metrics')).text);
  assert.is(sampleValue(samples, 'nettools_worker_restarts_total'), 1);
});

test('shutdown stops every worker, the replacement included', async ({ sup }) => {
  const threads = sup.threads().filter((w) => w !== null);
  await sup.shutdown(1000);
  assert.ok(threads.every((w) => w.threadId === -1));
});

test.run();
