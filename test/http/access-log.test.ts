import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../src/log';
import { request } from '../support/http';
import { startServer } from '../support/server';

test('each request writes one JSON log line with method, path, status, duration and client', async () => {
  const lines: string[] = [];
  const server = await startServer({}, createLogger('info', { write: (l: string) => void lines.push(l) }));
  try {
    await request(server.base, '/nope?x=secret');
    await request(server.base, '/health');
  } finally {
    await server.stop();
  }
  assert.is(lines.length, 2);
  assert.ok(lines.every((l) => l.endsWith('\n') && l.indexOf('\n') === l.length - 1));
  const [first, second] = lines.map((l) => JSON.parse(l));
  assert.is(first.method, 'GET');
  assert.is(first.path, '/nope');
  assert.is(first.status, 404);
  assert.is(first.client, '127.0.0.1');
  assert.type(first.durationMs, 'number');
  assert.is(second.status, 200);
});

test('log level filters lower levels', () => {
  const lines: string[] = [];
  const log = createLogger('warn', { write: (l: string) => void lines.push(l) });
  log.log('info', 'quiet');
  log.log('error', 'loud', { n: 1 });
  assert.is(lines.length, 1);
  assert.is(JSON.parse(lines[0] as string).msg, 'loud');
});

test.run();
