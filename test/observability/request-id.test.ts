import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../src/log';
import { postJson, request } from '../support/http';
import { startServer } from '../support/server';

test('every response carries a fresh X-Request-Id that is also in the log line', async () => {
  const lines: string[] = [];
  const server = await startServer({}, createLogger('info', { write: (l: string) => void lines.push(l) }));
  try {
    const a = await request(server.base, '/health');
    const b = await postJson(server.base, '/api/tools/dns', {});
    const ids = [a.headers['x-request-id'], b.headers['x-request-id']];
    assert.ok(ids.every((id) => typeof id === 'string' && /^[0-9a-f-]{36}$/.test(id)));
    assert.is.not(ids[0], ids[1]);
    assert.equal(lines.map((l) => JSON.parse(l).requestId), ids);
  } finally {
    await server.stop();
  }
});

test('a plain X-Request-Id from the caller is kept; an unsafe one is replaced', async () => {
  const server = await startServer();
  try {
    assert.is((await request(server.base, '/health', { headers: { 'x-request-id': 'probe-42.a' } })).headers['x-request-id'], 'probe-42.a');
    const replaced = (await request(server.base, '/health', { headers: { 'x-request-id': 'a b<script>' } })).headers['x-request-id'];
    assert.match(String(replaced), /^[0-9a-f-]{36}$/);
  } finally {
    await server.stop();
  }
});

test('log lines carry no request body', async () => {
  const lines: string[] = [];
  const server = await startServer({}, createLogger('info', { write: (l: string) => void lines.push(l) }));
  try {
    await postJson(server.base, '/api/tools/ping', { host: 'secret-host.example', count: 99 });
  } finally {
    await server.stop();
  }
  assert.is(lines.length, 1);
  assert.not.match(lines[0] as string, 'secret-host');
});

test.run();
